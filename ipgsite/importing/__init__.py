"""Bringing in the IPG's text from the documents translators have: wiki pages, annotated editions, whole documents.

`documents` splits a paste or a file into sections, `units` reads a section's text into paragraphs, `commentary`
tells an annotated edition's commentary from its official text, `alignment` proposes where each paragraph and note
goes, and `applying` writes the proposal through `ipgsite.editing.writing`.
"""

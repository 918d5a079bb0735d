"""Bringing in the IPG's text from the documents translators have: PDF files and text copied from them, saved web
pages, Word, Markdown, DokuWiki, two-column tables, annotated editions, whole documents.

One pipeline, each stage a module that imports only the stages before it (an import-linter contract holds it):
`ipgsite.documents` reads a file into blocks; `cleaning` takes out running headers, page numbers, hard wraps and
markup; `sections` splits the document at real section headings; `units` reads a section's paragraphs, their parts
and example labels, and `commentary` tells commentary from official text; `alignment` places each on a key;
`proposals` compares what it placed with what is stored; `applying` writes the chosen rows through
`ipgsite.editing.writing`. `vocabulary` holds the words and marks every stage reads.
"""

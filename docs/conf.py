"""Sphinx configuration for the site's documentation (`make docs`; `make lint` builds it with warnings as errors)."""

project = "IPG reference site"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 4
myst_enable_extensions = ["deflist"]
html_theme = "alabaster"
html_title = project
html_static_path = []
suppress_warnings = []

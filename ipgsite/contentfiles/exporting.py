"""The content files the database holds: what `exportcontent` writes, releases aside (content/releases/ holds what
releases froze, which no edit changes: `releases.export_releases`)."""

from pathlib import Path

from ipgsite.ipg.documents import documents_from_database

from . import finder as finder_files
from . import terms as term_files
from .sections import dump_chapters, dump_section
from .statuses import statuses_into_documents

SECTIONS = "sections"


def working_files():
    """{name relative to the content directory, e.g. "sections/2.3.toml": text} of the working text, the terms and
    the finder, as the database holds them now; {} when it holds no sections."""
    chapters, sections = documents_from_database()
    if not sections:
        return {}
    statuses_into_documents(sections)
    files = {"chapters.toml": dump_chapters(chapters)}
    files.update((f"{SECTIONS}/{doc.number}.toml", dump_section(doc)) for doc in sections)
    terms = term_files.documents_from_database()
    if terms:
        files[term_files.FILENAME] = term_files.dump_terms(terms)
    graph = finder_files.documents_from_database()
    if graph:
        files[finder_files.FILENAME] = finder_files.dump_finder(graph)
    return files


def write_files(directory, files):
    """Make `directory` hold `files` ({name: text}): each written where it differs, and the section files, the
    terms and the finder that the database no longer holds removed. The number of files changed."""
    directory = Path(directory)
    (directory / SECTIONS).mkdir(parents=True, exist_ok=True)
    changed = 0
    for name, text in files.items():
        path, data = directory / name, text.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            changed += 1
    stale = set((directory / SECTIONS).glob("*.toml"))
    stale |= {directory / name for name in (term_files.FILENAME, finder_files.FILENAME) if (directory / name).exists()}
    for path in stale:
        if path.relative_to(directory).as_posix() not in files:
            path.unlink()
            changed += 1
    return changed

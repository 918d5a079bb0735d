"""What the benchmarks share: a throwaway database, and the corpus at 50x.

The corpus is content/ (1x), then content/ plus synthetic copies of every section with text: new sections holding
the same paragraphs and notes, each text changed by `mark` (by default left as it is).
"""

import os
import tempfile


def setup_database(postgres_url, name):
    """Point Django at a throwaway database called `name` (a file on SQLite, or a database on the server of
    `postgres_url`) before it starts; return a function that removes it."""
    if postgres_url:
        import psycopg

        admin_url = postgres_url.rsplit("/", 1)[0] + "/postgres"  # the server's maintenance database
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8'")
        os.environ["DATABASE_URL"] = admin_url.rsplit("/", 1)[0] + f"/{name}"

        def drop():
            from django.db import connections

            connections.close_all()
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name}")

        return drop
    directory = tempfile.TemporaryDirectory(prefix=f"{name}-")
    os.environ["DATABASE_URL"] = f"sqlite:///{directory.name}/bench.sqlite3"
    return directory.cleanup


def as_it_is(text, _copy):
    return text


def marked(obj, field, copy, mark):
    """The object's text in every language, each passed through `mark`, as keyword arguments for a copy."""
    from ipgsite.ipg import languages

    columns = [f"{field}_{languages.field_suffix(code)}" for code in languages.CODES]
    return {column: mark(getattr(obj, column), copy) for column in columns}


def add_copies(copies, mark=as_it_is):
    """Synthetic copies of every section with text, each text passed through `mark(text, copy number)`."""
    from ipgsite.ipg.models import Note, Paragraph, Section

    originals = list(Section.objects.with_text().order_by("order"))
    for copy in range(1, copies + 1):
        for index, section in enumerate(originals, 1):
            clone = Section.objects.create(
                number=f"{100 + copy}.{index}",
                chapter=section.chapter,
                penalty=section.penalty,
                order=10000 + copy * 100 + index,
                title_en=f"{section.title_en} (copy {copy})",
            )
            clones = Paragraph.objects.bulk_create(
                Paragraph(
                    section=clone,
                    key=p.key,
                    part=p.part,
                    order=p.order,
                    bullet=p.bullet,
                    **marked(p, "text", copy, mark),
                )
                for p in section.paragraphs.order_by("order")
            )
            by_key = {p.key: p for p in clones}
            Note.objects.bulk_create(
                Note(
                    paragraph=by_key[n.paragraph.key],
                    language=n.language,
                    source=n.source,
                    order=n.order,
                    **marked(n, "body", copy, mark),
                )
                for n in Note.objects.filter(paragraph__section=section).select_related("paragraph")
            )

"""``make messages``: bring the catalogs up to date with the messages the source marks.

New messages join each catalog with an empty translation (the test suite then says which ones
to translate); messages no longer in the source are dropped; translations are kept.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot import i18n

LANGUAGE_NAMES = {"fr": "French", "sv": "Swedish"}
ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    template = Catalog(domain=i18n.DOMAIN)
    for (context, _key), message in sorted(
        i18n.marked_messages(ROOT).items(), key=lambda item: (item[0][0] or "", item[0][1])
    ):
        template.add(message, context=context)
    for lang in i18n.LANGS:
        path = i18n.catalog_path(lang)
        if lang == i18n.DEFAULT_LANG:
            continue
        with path.open("rb") as source:
            catalog = read_po(source, locale=lang, domain=i18n.DOMAIN)
        created, revised = catalog.creation_date, catalog.revision_date
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        # Fixed header fields: the files change only when their messages do.
        catalog.creation_date, catalog.revision_date = created, revised
        catalog.project, catalog.version = "Tapis", ""
        catalog.msgid_bugs_address = catalog.last_translator = catalog.language_team = "Tapis"
        catalog.fuzzy = False
        catalog.header_comment = f"# {LANGUAGE_NAMES[lang]} messages of Tapis."
        text = io.BytesIO()
        write_po(text, catalog, width=100, sort_output=True)
        path.write_bytes(text.getvalue())
        untranslated = sum(1 for m in catalog if m.id and not all_translated(m.string))
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, {untranslated} to translate")


def all_translated(string: str | tuple[str, ...]) -> bool:
    return all(string) if isinstance(string, tuple) else bool(string)


if __name__ == "__main__":
    main()

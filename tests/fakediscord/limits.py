"""What Discord refuses, as its API documentation states it, checked on what the bot sends.

Each check returns the problems it found, each at its place in the request body (a path of
keys and indexes) with Discord's error code for it. :func:`form_error` gathers them into the
body Discord answers a bad request with (code 50035, "Invalid Form Body", and an ``errors``
tree mirroring the request). The fake refuses a request that has any problem, and the tests
use the same checks on components built without a server (tests/bot/discord/test_bounds.py
scans random positions of every game with them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]
Path = tuple[str | int, ...]

# -- the documented limits -------------------------------------------------------------------

CONTENT = 2000  # characters of a message's content
EMBEDS = 10  # embeds of one message
ATTACHMENTS = 10  # files of one message
UPLOAD_BYTES = 10 * 1024 * 1024  # the files of one request, together (a server not boosted)
NONCE = 25  # characters of a message's nonce
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_TOTAL = 256, 4096, 6000

ROWS = 5  # action rows of one message
BUTTONS_PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_TEXT = 100  # an option's label, value and description
PLACEHOLDER = 150

CALLBACK_WINDOW = 3.0  # seconds from the event to the first answer
FOLLOWUP_WINDOW = 15 * 60.0  # seconds an interaction's token stays valid
FOLLOWUPS = 5  # follow-ups per interaction where the app is no member (a user install)

CHOICES = 25  # autocomplete choices, and a command option's fixed choices
CHOICE_TEXT = 100  # a choice's name (and its localizations) and a string value

COMMANDS = 100  # chat-input commands of one scope (global, or one server)
COMMAND_OPTIONS = 25  # options of a command or subcommand
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_TOTAL = 8000  # characters of one command, counting each field's longest wording

# The locales Discord lets commands be translated into.
_LOCALE_LIST = (
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el "
    "bg ru uk hi th zh-CN ja zh-TW ko"
)
LOCALES = frozenset(_LOCALE_LIST.split())

# Message flags one may set: on a channel message, and on an interaction's reply.
SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS = 1 << 2, 1 << 6, 1 << 12
CHANNEL_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS
REPLY_FLAGS = CHANNEL_FLAGS | EPHEMERAL

BUTTON, SELECT, ROW = 2, 3, 1
SELECTS = {3, 5, 6, 7, 8}  # string, user, role, mentionable, channel selects

# Interaction kinds, and the callbacks each may be answered with.
PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL = 1, 2, 3, 4, 5
ANSWERS = {
    COMMAND: {4, 5, 9},
    COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL: {4, 5, 6, 7},
}

# Error codes, Discord's own.
INVALID_FORM_BODY = 50035
UNKNOWN_INTERACTION = 10062
INVALID_WEBHOOK_TOKEN = 50027
MISSING_ACCESS = 50001
MAX_FOLLOWUPS = 40094  # an interaction past its follow-ups
TOO_LARGE = 40005


@dataclass(frozen=True)
class Problem:
    """One thing wrong, where it is in the body, in Discord's terms."""

    path: Path
    code: str
    message: str

    def __str__(self) -> str:
        return ".".join(map(str, self.path)) + f": {self.message} ({self.code})"


def form_error(problems: list[Problem]) -> Json:
    """Discord's answer to a bad body: every problem under its path in ``errors``."""
    tree: Json = {}
    for problem in problems:
        node = tree
        for key in problem.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return {"code": INVALID_FORM_BODY, "message": "Invalid Form Body", "errors": tree}


def _length(path: Path, text: object, low: int, high: int) -> list[Problem]:
    size = len(str(text))
    if low <= size <= high:
        return []
    return [Problem(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")]


def _at_most(path: Path, items: list[Any], high: int, what: str) -> list[Problem]:
    if len(items) <= high:
        return []
    return [Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length ({what}).")]


# -- messages --------------------------------------------------------------------------------


def message(body: Json, *, flags_allowed: int = CHANNEL_FLAGS) -> list[Problem]:
    """A message's body, as posted, edited, or sent in an interaction's answer."""
    found: list[Problem] = []
    content = body.get("content")
    if content is not None:
        found += _length(("content",), content, 0, CONTENT)
    embeds = body.get("embeds") or []
    found += _at_most(("embeds",), embeds, EMBEDS, "embeds")
    for index, embed in enumerate(embeds):
        found += _embed(("embeds", index), embed)
    found += _at_most(("attachments",), body.get("attachments") or [], ATTACHMENTS, "files")
    nonce = body.get("nonce")
    if isinstance(nonce, str):
        found += _length(("nonce",), nonce, 1, NONCE)
    mentions = body.get("allowed_mentions")
    if isinstance(mentions, dict):
        parse = mentions.get("parse") or []
        for kind in ("users", "roles"):
            if kind in parse and mentions.get(kind):
                found.append(
                    Problem(
                        ("allowed_mentions",),
                        "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                        f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                    )
                )
    flags = int(body.get("flags") or 0)
    if flags & ~flags_allowed:
        found.append(Problem(("flags",), "MESSAGE_FLAGS_INVALID", "Invalid flags."))
    found += components(body.get("components") or [])
    return found


def _embed(path: Path, embed: Json) -> list[Problem]:
    found = []
    if "title" in embed:
        found += _length((*path, "title"), embed["title"], 0, EMBED_TITLE)
    if "description" in embed:
        found += _length((*path, "description"), embed["description"], 0, EMBED_DESCRIPTION)
    total = len(json.dumps(embed, ensure_ascii=False))
    if total > EMBED_TOTAL * 2:  # field names and quotes apart, far past the total
        found.append(Problem(path, "BASE_TYPE_BAD_LENGTH", "Embed size exceeds maximum size."))
    return found


def upload(files: list[tuple[str, bytes]]) -> bool:
    """Whether the files of one request fit its size limit (else Discord answers 413)."""
    return sum(len(data) for _, data in files) <= UPLOAD_BYTES


def components(rows: list[Json]) -> list[Problem]:
    """A message's components: rows of at most five buttons, or one select alone."""
    found = _at_most(("components",), rows, ROWS, "rows")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        path: Path = ("components", r)
        if row.get("type") != ROW:
            found.append(
                Problem(path, "COMPONENT_TYPE_INVALID", "A top-level component must be a row.")
            )
            continue
        items = row.get("components") or []
        if not items:
            found += _length((*path, "components"), "", 1, BUTTONS_PER_ROW)
        kinds = [int(item.get("type", 0)) for item in items]
        if any(kind in SELECTS for kind in kinds) and len(items) > 1:
            found.append(
                Problem(
                    (*path, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu must be alone in its row.",
                )
            )
        found += _at_most((*path, "components"), items, BUTTONS_PER_ROW, "buttons")
        for i, item in enumerate(items):
            found += _component((*path, "components", i), item, seen)
    return found


def _component(path: Path, item: Json, seen: set[str]) -> list[Problem]:
    found: list[Problem] = []
    kind = int(item.get("type", 0))
    custom_id = item.get("custom_id")
    link = kind == BUTTON and int(item.get("style", 1)) == 5
    if custom_id is None and not link:
        found.append(Problem((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
    if custom_id is not None:
        found += _length((*path, "custom_id"), custom_id, 1, CUSTOM_ID)
        if custom_id in seen:
            found.append(
                Problem(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated.",
                )
            )
        seen.add(custom_id)
    if kind == BUTTON:
        if "label" in item:
            found += _length((*path, "label"), item["label"], 0, BUTTON_LABEL)
        if not item.get("label") and not item.get("emoji"):
            found.append(
                Problem(
                    path, "BUTTON_COMPONENT_LABEL_OR_EMOJI", "A button needs a label or an emoji."
                )
            )
    elif kind == SELECT:
        found += _select(path, item)
    elif kind not in SELECTS:
        found.append(Problem((*path, "type"), "COMPONENT_TYPE_INVALID", "Unknown component type."))
    return found


def _select(path: Path, item: Json) -> list[Problem]:
    options = item.get("options") or []
    found = _length((*path, "options"), "x" * len(options), 1, SELECT_OPTIONS)
    values: set[str] = set()
    for o, option in enumerate(options):
        here: Path = (*path, "options", o)
        found += _length((*here, "label"), option.get("label", ""), 1, OPTION_TEXT)
        found += _length((*here, "value"), option.get("value", ""), 1, OPTION_TEXT)
        if option.get("description") is not None:
            found += _length((*here, "description"), option["description"], 0, OPTION_TEXT)
        if option.get("value") in values:
            found.append(
                Problem(
                    (*here, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select component option values must be unique.",
                )
            )
        values.add(str(option.get("value")))
    if item.get("placeholder") is not None:
        found += _length((*path, "placeholder"), item["placeholder"], 0, PLACEHOLDER)
    low, high = int(item.get("min_values", 1)), int(item.get("max_values", 1))
    if not 0 <= low <= SELECT_OPTIONS:
        found.append(
            Problem((*path, "min_values"), "NUMBER_TYPE_OUT_OF_RANGE", "Must be between 0 and 25.")
        )
    if not 1 <= high <= SELECT_OPTIONS:
        found.append(
            Problem((*path, "max_values"), "NUMBER_TYPE_OUT_OF_RANGE", "Must be between 1 and 25.")
        )
    if low > high:
        found.append(
            Problem(
                (*path, "min_values"),
                "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                "min_values may not exceed max_values.",
            )
        )
    if item.get("type") == SELECT and options and high > len(options):
        found.append(
            Problem(
                (*path, "max_values"),
                "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                f"max_values may not exceed the number of options ({len(options)}).",
            )
        )
    return found


# -- interactions ----------------------------------------------------------------------------


def callback(kind: int, body: Json) -> list[Problem]:
    """An interaction's first answer: a type its interaction allows, and a valid body."""
    answer = int(body.get("type", 0))
    if answer not in ANSWERS.get(kind, set()):
        return [
            Problem(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Invalid interaction response type for this interaction.",
            )
        ]
    data = body.get("data") or {}
    if answer == 8:
        return [
            Problem(("data", *p.path), p.code, p.message)
            for p in choices(data.get("choices") or [])
        ]
    if answer in (4, 7):
        # An update (7) keeps its message as private or public as it was: no flag changes it.
        allowed = REPLY_FLAGS if answer == 4 else SUPPRESS_EMBEDS
        return [
            Problem(("data", *p.path), p.code, p.message)
            for p in message(data, flags_allowed=allowed)
        ]
    if answer == 5:
        flags = int(data.get("flags") or 0)
        if flags & ~REPLY_FLAGS:
            return [Problem(("data", "flags"), "MESSAGE_FLAGS_INVALID", "Invalid flags.")]
    return []


def choices(found_choices: list[Json]) -> list[Problem]:
    """Autocomplete choices: at most 25, each name and string value 1 to 100 characters."""
    found = _at_most(("choices",), found_choices, CHOICES, "choices")
    for index, choice in enumerate(found_choices):
        found += _choice(("choices", index), choice)
    return found


def _choice(path: Path, choice: Json) -> list[Problem]:
    found = _length((*path, "name"), choice.get("name", ""), 1, CHOICE_TEXT)
    for locale, name in (choice.get("name_localizations") or {}).items():
        found += _length((*path, "name_localizations", locale), name, 1, CHOICE_TEXT)
    value = choice.get("value")
    if isinstance(value, str):
        found += _length((*path, "value"), value, 1, CHOICE_TEXT)
    return found


def selected(item: Json, values: list[str]) -> str | None:
    """Why a client could not send ``values`` from the select ``item`` (None: it could)."""
    offered = [str(option.get("value")) for option in item.get("options") or []]
    if item.get("disabled"):
        return "the menu is disabled"
    if len(set(values)) != len(values):
        return f"a value is picked twice: {values}"
    strange = [value for value in values if value not in offered]
    if strange:
        return f"{strange} are not among the options {offered}"
    low, high = int(item.get("min_values", 1)), int(item.get("max_values", 1))
    if not low <= len(values) <= high:
        return f"{len(values)} values picked, the menu takes {low} to {high}"
    return None


# -- command sync ----------------------------------------------------------------------------

_NAME = re.compile(r"^[-_\w]{1,32}$")


def commands(body: list[Json]) -> list[Problem]:
    """A whole sync (PUT of a scope's commands): their number, then each command."""
    found: list[Problem] = []
    chat = [c for c in body if int(c.get("type", 1)) == 1]
    if len(chat) > COMMANDS:
        found.append(Problem((), "APPLICATION_COMMAND_TOO_MANY", f"At most {COMMANDS} commands."))
    names = [str(c.get("name")) for c in body]
    for index, command in enumerate(body):
        found += command_problems((index,), command)
        if names.count(str(command.get("name"))) > 1:
            found.append(
                Problem(
                    (index, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique.",
                )
            )
    return found


def command_problems(path: Path, command: Json) -> list[Problem]:
    """One command: its names, descriptions, options and total length."""
    chat = int(command.get("type", 1)) == 1
    found = _named(path, command, chat)
    found += _options(path, command.get("options") or [], chat)
    for key in ("contexts", "integration_types"):
        value = command.get(key)
        if value is not None and not (
            isinstance(value, list) and all(isinstance(v, int) and 0 <= v <= 2 for v in value)
        ):
            found.append(
                Problem((*path, key), "BASE_TYPE_CHOICES", "Value must be one of (0, 1, 2).")
            )
    total = _total(command)
    if total > COMMAND_TOTAL:
        found.append(
            Problem(
                path,
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({COMMAND_TOTAL}); it has {total}.",
            )
        )
    return found


def _named(path: Path, thing: Json, chat: bool) -> list[Problem]:
    """A command's or an option's name and description, in every language given."""
    found: list[Problem] = []
    names = {"": thing.get("name", "")} | dict(thing.get("name_localizations") or {})
    for locale, name in names.items():
        where: Path = (*path, "name") if not locale else (*path, "name_localizations", locale)
        if chat and (not _NAME.match(str(name)) or str(name) != str(name).lower()):
            found.append(
                Problem(
                    where, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}."
                )
            )
        elif not chat:
            found += _length(where, name, 1, COMMAND_NAME)
    descriptions = {"": thing.get("description", "")} | dict(
        thing.get("description_localizations") or {}
    )
    for locale, text in descriptions.items():
        where = (
            (*path, "description") if not locale else (*path, "description_localizations", locale)
        )
        found += _length(where, text, 1 if chat else 0, COMMAND_DESCRIPTION)
    for key in ("name_localizations", "description_localizations"):
        for locale in thing.get(key) or {}:
            if locale not in LOCALES:
                found.append(
                    Problem((*path, key, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}.")
                )
    return found


def _options(path: Path, options: list[Json], chat: bool) -> list[Problem]:
    found = _at_most((*path, "options"), options, COMMAND_OPTIONS, "options")
    for index, option in enumerate(options):
        here: Path = (*path, "options", index)
        found += _named(here, option, chat)
        fixed = option.get("choices") or []
        found += _at_most((*here, "choices"), fixed, CHOICES, "choices")
        for c, choice in enumerate(fixed):
            found += _choice((*here, "choices", c), choice)
            for locale in choice.get("name_localizations") or {}:
                if locale not in LOCALES:
                    found.append(
                        Problem(
                            (*here, "choices", c, "name_localizations", locale),
                            "LOCALE_INVALID",
                            f"Invalid locale {locale!r}.",
                        )
                    )
        if fixed and option.get("autocomplete"):
            found.append(
                Problem(
                    (*here, "autocomplete"),
                    "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                    "Autocomplete and choices are exclusive.",
                )
            )
        found += _options(here, option.get("options") or [], chat)
    return found


def _longest(thing: Json, key: str) -> int:
    texts = [str(thing.get(key) or "")] + [
        str(t) for t in (thing.get(f"{key}_localizations") or {}).values()
    ]
    return max(len(t) for t in texts)


def _total(thing: Json) -> int:
    """Names, descriptions, choices' names and values, options within: each field counted at
    its longest wording (the default or a localization)."""
    total = _longest(thing, "name") + _longest(thing, "description")
    for choice in thing.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in thing.get("options") or []:
        total += _total(option)
    return total

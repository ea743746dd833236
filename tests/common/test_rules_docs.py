"""Every rule id cited in the repository resolves to an anchor in its game's rules page.

ASARA's ids (R1-R11, with sub-ids such as R4.2.1) live in docs/asara/rules.md; BASARI's
game ids (B1-B16) and environment-design ids (E1-E7) live in docs/basari/rules.md.

Both pages anchor an id the same way: `<a id="r4-2-1"></a>` (the id in lower case, each dot
a hyphen), directly followed by the id itself, in a `##` heading for a top-level id
(`## <a id="r3"></a>R3 Placing a buyer`) and as a bold label for a sub-id
(`<a id="r3-2"></a>**R3.2** ...`).

A citation is an id of those families written with dots (`R3.2`, `B7`, `E4`), with word
boundaries on both sides (so `RGB`, `B905`, `E402` or `R12` are not citations), in the
*.py, *.md and *.ipynb files (notebook cell sources only) of the folders below and
README.md, or an id written with underscores inside a test name (`test_R3_2_...` is R3.2,
`test_the_B8_order` is B8).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED_DIRS = (
    "asara_env",
    "agents",
    "commandline",
    "training",
    "apps",
    "tests",
    "docs",
    "examples",
    "notebooks",
)
SCANNED_FILES = ("README.md",)
SUFFIXES = (".py", ".md", ".ipynb")
PAGES = {"asara": ROOT / "docs/asara/rules.md", "basari": ROOT / "docs/basari/rules.md"}


def _words(text: str) -> list[str]:
    return text.split()


# The ids of the specifications, section by section. The pages must anchor exactly these.
SPEC_IDS = {
    "asara": _words(
        """
        R1
        R2
        R3 R3.1 R3.2 R3.3 R3.4 R3.5 R3.6
        R4 R4.1 R4.2 R4.2.1 R4.2.2 R4.2.3 R4.2.4 R4.2.5 R4.2.6 R4.2.7 R4.3 R4.4 R4.5 R4.6
        R5 R5.1 R5.2
        R6 R6.1 R6.2 R6.3 R6.4
        R7 R7.1 R7.2 R7.3
        R8 R8.1 R8.2 R8.3 R8.4 R8.5
        R9 R9.1 R9.2
        R10 R10.1 R10.2 R10.3
        R11
        """
    ),
    "basari": _words(
        """
        B1
        B2 B2.1 B2.2 B2.3 B2.4
        B3 B3.1 B3.2 B3.3 B3.4 B3.5 B3.6
        B4 B4.1 B4.2 B4.3 B4.4
        B5 B5.1 B5.2 B5.3 B5.4 B5.5
        B6 B6.1 B6.2 B6.3 B6.4
        B7 B7.1 B7.2 B7.3 B7.4 B7.5 B7.6 B7.7
        B8 B8.1 B8.2 B8.3
        B9 B9.1 B9.2 B9.3 B9.4 B9.5 B9.6 B9.7
        B10 B10.1 B10.2 B10.3 B10.4
        B11 B11.1 B11.2 B11.3
        B12 B13 B14 B15 B16
        E1 E2 E3 E4 E5 E6 E7
        """
    ),
}

# Cited ids that are not in the specifications but are accepted: only ids verified to be
# typos in code comments, each with the place and the reason. None is known.
# Example entry: "R3.7": "asara_env/asara/x.py:12, a comment meaning R3.5"
KNOWN_TYPOS: dict[str, str] = {}

_FAMILY = r"(?:R(?:1[01]|[1-9])|B(?:1[0-6]|[1-9])|E[1-7])"
DOTTED = re.compile(rf"(?<![\w.])({_FAMILY}(?:\.\d+)*)(?!\w|\.\d)")
TEST_NAME = re.compile(r"\btest_\w+")
TOKEN = re.compile(rf"{_FAMILY}")
ANCHOR = re.compile(r'<a id="(?P<anchor>[^"]*)"></a>(?P<rest>.*)')
LABEL = re.compile(r"(?P<bold>\*\*)?(?P<label>[RBE]\d+(?:\.\d+)*)(?(bold)\*\*|[ \n])")


def page_of(rule_id: str) -> str:
    """The rules page a rule id belongs to: 'asara' for R ids, 'basari' for B and E ids."""
    return "asara" if rule_id.startswith("R") else "basari"


def slug(rule_id: str) -> str:
    """The anchor of a rule id: R4.2.1 -> r4-2-1."""
    return rule_id.lower().replace(".", "-")


def ids_in_test_name(name: str) -> list[str]:
    """Rule ids written with underscores in a test name: test_R4_2_1_x -> ['R4.2.1']."""
    parts = name.split("_")
    found = []
    for i, part in enumerate(parts):
        if TOKEN.fullmatch(part):
            sub = []
            for following in parts[i + 1 :]:
                if not following.isdigit():
                    break
                sub.append(following)
            found.append(".".join([part, *sub]))
    return found


def ids_in_line(line: str) -> list[str]:
    """Every rule id cited in one line of text."""
    found = [m.group(1) for m in DOTTED.finditer(line)]
    for m in TEST_NAME.finditer(line):
        found += ids_in_test_name(m.group(0))
    return found


def scanned_files() -> list[Path]:
    files = [ROOT / name for name in SCANNED_FILES if (ROOT / name).is_file()]
    for folder in SCANNED_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if (
                path.suffix in SUFFIXES
                and path.is_file()
                and ".ipynb_checkpoints" not in path.parts
            ):
                files.append(path)
    # this file lists every id of the specifications; it cites nothing
    return [path for path in files if path.resolve() != Path(__file__).resolve()]


def text_lines(path: Path) -> list[tuple[str, str]]:
    """(place, line) pairs of a file: 'path:line', or 'path:cell N:line' in a notebook."""
    rel = path.relative_to(ROOT).as_posix()
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".ipynb":
        return [(f"{rel}:{i}", line) for i, line in enumerate(text.splitlines(), 1)]
    out = []
    for n, cell in enumerate(json.loads(text).get("cells", []), 1):
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        out += [(f"{rel}:cell {n}:{i}", line) for i, line in enumerate(source.splitlines(), 1)]
    return out


def cited_ids() -> dict[str, list[str]]:
    """Every rule id cited in the scanned files, with the places citing it."""
    cited: dict[str, list[str]] = defaultdict(list)
    for path in scanned_files():
        for place, line in text_lines(path):
            for rule_id in ids_in_line(line):
                cited[rule_id].append(place)
    return dict(cited)


def anchors(page: str) -> dict[str, str]:
    """The rule ids a page anchors, each with its anchor; fails on a malformed anchor."""
    found: dict[str, str] = {}
    path = PAGES[page]
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in ANCHOR.finditer(line):
            where = f"{path.relative_to(ROOT).as_posix()}:{i}"
            label = LABEL.match(m.group("rest") + "\n")
            assert label, f"{where}: anchor {m.group('anchor')!r} is not followed by a rule id"
            rule_id = label.group("label")
            assert m.group("anchor") == slug(rule_id), f"{where}: {rule_id} needs #{slug(rule_id)}"
            heading = line.startswith("## ") and line.index("<a ") == 3
            if "." in rule_id:
                assert label.group("bold") and not heading, f"{where}: {rule_id} is a bold label"
            else:
                assert heading and not label.group("bold"), f"{where}: {rule_id} is a ## heading"
            assert rule_id not in found, f"{where}: {rule_id} is anchored twice"
            found[rule_id] = m.group("anchor")
    return found


@pytest.fixture(scope="module")
def cited() -> dict[str, list[str]]:
    return cited_ids()


def test_the_collector_reads_rule_ids_and_nothing_else() -> None:
    line = "RGB B905 E402 R12 B17 E8 xR3 R3.2, B7.3. (E4) R4.2.1; R10 B16 1.R5"
    assert ids_in_line(line) == ["R3.2", "B7.3", "E4", "R4.2.1", "R10", "B16"]
    name = "def test_R4_2_1_and_the_B8_order_for_3_players_E2(): rules_r1_r5"
    assert ids_in_line(name) == ["R4.2.1", "B8", "E2"]


def test_the_repository_cites_rule_ids(cited: dict[str, list[str]]) -> None:
    families = {rule_id[0] for rule_id in cited}
    assert families == {"R", "B", "E"}, sorted(cited)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_each_page_anchors_exactly_the_ids_of_its_specification(page: str) -> None:
    found = anchors(page)
    missing = [rule_id for rule_id in SPEC_IDS[page] if rule_id not in found]
    extra = [rule_id for rule_id in found if rule_id not in SPEC_IDS[page]]
    assert not missing, f"{PAGES[page].name} of {page} lacks {missing}"
    assert not extra, f"{PAGES[page].name} of {page} anchors ids of no specification: {extra}"
    assert list(found) == SPEC_IDS[page], "the ids are anchored out of order"


def test_every_cited_id_exists_in_the_specifications(cited: dict[str, list[str]]) -> None:
    spec = {rule_id for ids in SPEC_IDS.values() for rule_id in ids}
    unknown = {
        rule_id: places
        for rule_id, places in sorted(cited.items())
        if rule_id not in spec and rule_id not in KNOWN_TYPOS
    }
    assert not unknown, "cited ids that no specification has: " + "; ".join(
        f"{rule_id} at {', '.join(places)}" for rule_id, places in unknown.items()
    )


def test_every_cited_id_resolves_to_an_anchor_in_its_rules_page(
    cited: dict[str, list[str]],
) -> None:
    pages = {page: anchors(page) for page in PAGES}
    unresolved = {
        rule_id: places
        for rule_id, places in sorted(cited.items())
        if rule_id not in KNOWN_TYPOS and rule_id not in pages[page_of(rule_id)]
    }
    assert not unresolved, "cited ids with no anchor: " + "; ".join(
        f"{rule_id} ({PAGES[page_of(rule_id)].relative_to(ROOT).as_posix()}#{slug(rule_id)}) "
        f"at {', '.join(places[:3])}"
        for rule_id, places in unresolved.items()
    )


def test_known_typos_are_still_cited_and_not_in_the_specifications(
    cited: dict[str, list[str]],
) -> None:
    spec = {rule_id for ids in SPEC_IDS.values() for rule_id in ids}
    stale = [rule_id for rule_id in KNOWN_TYPOS if rule_id in spec or rule_id not in cited]
    assert not stale, f"remove these from KNOWN_TYPOS: {stale}"

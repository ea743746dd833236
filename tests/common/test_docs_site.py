"""The documentation site reads from its files (`site/index.html` opened in a browser, no
server): a small site built with the project's mkdocs.yml has every link and script pointing
at a file, never at a folder, and carries its search index and search worker with it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

mkdocs_config = pytest.importorskip("mkdocs.config", reason="the docs extra is missing")
from mkdocs.commands.build import build  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PAGES = {
    "index.md": "# Home\n\nSee [a page](sub/page.md) and [a section](other.md#part).\n",
    "sub/page.md": "# Page\n\nBack [home](../index.md), [the section](../other.md#part).\n",
    "other.md": "# Other\n\n## Part\n\nWords to search for.\n",
}
LINK = re.compile(r"""(?:href|src)="([^"]*)\"""")
ELSEWHERE = ("http:", "https:", "mailto:", "javascript:", "data:")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-page site built with the project's configuration (its theme, plugins, URLs
    and scripts; only the pages and the navigation are the test's)."""
    root = tmp_path_factory.mktemp("docs-site")
    docs = root / "docs"
    for name, text in PAGES.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text)
    config = mkdocs_config.load_config(str(ROOT / "mkdocs.yml"))
    for script in config.extra.get("polyfills", []):  # the project's own scripts come along
        if not str(script).startswith(ELSEWHERE):
            (docs / str(script)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / "docs" / str(script), docs / str(script))
    config = mkdocs_config.load_config(
        str(ROOT / "mkdocs.yml"),
        docs_dir=str(docs),
        site_dir=str(root / "site"),
        nav=[{"Home": "index.md"}, {"Page": "sub/page.md"}, {"Other": "other.md"}],
    )
    build(config)
    return root / "site"


def local_targets(page: Path) -> list[str]:
    """The links and scripts of a built page that stay inside the site, without #part."""
    links = [link for link in LINK.findall(page.read_text()) if not link.startswith(ELSEWHERE)]
    return [path for path in (unquote(urlsplit(link).path) for link in links) if path]


@pytest.mark.parametrize("page", ["index.html", "sub/page.html", "other.html"])
def test_every_link_of_a_page_opens_a_file(site: Path, page: str) -> None:
    targets = local_targets(site / page)
    assert any(t.endswith("page.html") or t.endswith("other.html") for t in targets)
    for target in targets:
        assert (site / page).parent.joinpath(target).resolve().is_file(), f"{page}: {target}"


def test_search_works_without_a_server(site: Path) -> None:
    index = (site / "search" / "search_index.js").read_text()
    assert index.startswith("var __index = ") and "Words to search for" in index
    scripts = [t for t in local_targets(site / "sub/page.html") if t.endswith(".js")]
    worker = [t for t in scripts if "iframe-worker" in t]
    assert worker, "no script replaces the search's web worker for pages opened from files"

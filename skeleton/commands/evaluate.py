"""``scrapy evaluate``: score a crawl's skeleton against a true tree."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scrapy.exceptions import UsageError

from skeleton.cli import SkeletonCommand, json_option, option
from skeleton.commands.tree import load_crawl_tree
from skeleton.sew.evaluation import score_tree
from skeleton.analysis.training import ignored_pages, load_truth, page_id

__all__ = ["Command", "tree_edges", "read_tree_file"]


def tree_edges(tree: dict[str, Any]) -> tuple[str, list[tuple[str, str]], int]:
    """Root, (parent, child) edges and node count of a nested ``{"url", "children"}``
    tree. Broken nodes (``"broken": true``: pages that failed for good, a broken
    link) are no pages of the site: not scored, nor the edges to and from them."""
    edges, stack, nodes = [], [tree], 0
    while stack:
        node = stack.pop()
        broken = bool(node.get("broken"))
        nodes += not broken
        for child in node.get("children", []):
            if not broken and not child.get("broken"):
                edges.append((page_id(node["url"]), page_id(child["url"])))
            stack.append(child)
    return page_id(tree["url"]), edges, nodes


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _rebase(root: str, edges: list[tuple[str, str]], ignore: set[str],
            origin: str) -> tuple[str, list[tuple[str, str]], set[str]]:
    """The truth with its URLs moved to ``origin`` (same paths)."""
    def move(url: str) -> str:
        return origin + url[len(_origin(url)):]
    return move(root), [(move(p), move(c)) for p, c in edges], {move(u) for u in ignore}


def _nested(pages: list[dict[str, Any]]) -> dict[str, Any]:
    """A nested tree from feed items: each page under the page that found it
    (``found_from``), the base page (no ``found_from``) at the root."""
    children: dict[str, list[dict[str, Any]]] = {}
    nodes: dict[str, dict[str, Any]] = {}
    root = None
    for item in pages:
        url = item.get("url")
        if not isinstance(url, str) or url in nodes:
            continue
        nodes[url] = {"url": url, "children": [], "broken": item.get("reason") == "failed"}
        parent = item.get("found_from")
        if parent:
            children.setdefault(parent, []).append(nodes[url])
        elif root is None:
            root = nodes[url]
    if root is None:
        raise UsageError("the feed has no base page (an item without found_from)")
    for parent, kids in children.items():
        if parent in nodes:
            nodes[parent]["children"].extend(kids)
    return root


def read_tree_file(path: str) -> dict[str, Any]:
    """A tree written by ``scrapy tree`` (JSON), or a feed of pages (``-o pages.jsonl``
    or a JSON list of items): then each page hangs from the page that found it,
    the crawl's discovery tree, not the skeleton (a note says so)."""
    try:
        raw = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read tree {path}: {exc}") from None
    try:
        data: Any = json.loads(raw)
    except ValueError:
        try:
            data = [json.loads(line) for line in raw.splitlines() if line.strip()]
        except ValueError as exc:
            raise UsageError(f"{path} is neither a tree from 'scrapy tree' nor a feed of pages: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("url"), str):
        return data
    if isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
        print(f"note: {path} is a feed of pages: scored as the crawl found them (found_from); the "
              "skeleton itself is 'scrapy tree -o tree.json'", file=sys.stderr)
        return _nested(data)
    raise UsageError(f"{path} is neither a tree from 'scrapy tree' nor a feed of pages")


class Command(SkeletonCommand):
    """Score a crawl's skeleton against a true tree"""

    usage = "--truth FILE [--crawl ID | --tree FILE] [--json]"
    options = (option("--truth", required=True, help="true tree (JSON root + edges)"),
               option("--crawl", help="crawl id in Redis (default: the most recent)"),
               option("--tree", help="a tree exported by 'scrapy tree' instead of Redis"),
               json_option("print the scores as JSON"))

    def check_arguments(self, args: list[str], opts: argparse.Namespace) -> None:
        """Positional arguments are ignored."""

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        try:
            true_root, true_edges, meta = load_truth(opts.truth)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"cannot read truth {opts.truth}: {exc}") from None
        if opts.tree:
            tree, fetched = read_tree_file(opts.tree), None
        else:
            assert self.settings is not None
            _, tree, fetched = load_crawl_tree(self.settings, opts.crawl)
        root, edges, nodes = tree_edges(tree)
        ignore = ignored_pages(meta, true_root)
        if _origin(true_root) != _origin(root):
            # the same site served elsewhere (the corpus' truths name port 8000)
            print(f"note: the truth's URLs on {_origin(true_root)} are compared as on {_origin(root)}",
                  file=sys.stderr)
            true_root, true_edges, ignore = _rebase(true_root, true_edges, ignore, _origin(root))
        crawled = {root} | {page for edge in edges for page in edge}
        if not crawled & ({true_root} | {page for edge in true_edges for page in edge}):
            print("warning: no page of the truth is in the crawled tree: is it the truth of this site?",
                  file=sys.stderr)
        score = score_tree(root, edges, true_root, true_edges, ignore)
        result = score.as_dict()
        result["pages_fetched"] = fetched if fetched is not None else nodes
        result["fetched_per_true_page"] = round(result["pages_fetched"] / (len(true_edges) + 1), 4)
        if opts.json:
            print(json.dumps(result, indent=1))
            return
        print(f"{'depth':>6} {'page P':>7} {'page R':>7} {'page F1':>7} {'edge P':>7} "
              f"{'edge R':>7} {'edge F1':>7}")
        for limit in score.pages:
            p, e = score.pages[limit], score.edges[limit]
            print(f"{limit:>6} {p.precision:7.3f} {p.recall:7.3f} {p.f1:7.3f} "
                  f"{e.precision:7.3f} {e.recall:7.3f} {e.f1:7.3f}")
        print(f"pages fetched {result['pages_fetched']}, per true skeleton page "
              f"{result['fetched_per_true_page']:.2f}", file=sys.stdout)

"""``scrapy evaluate``: score a crawl's skeleton against a true tree."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from skeleton.commands.tree import load_crawl_tree
from skeleton.sew.evaluation import score_tree
from skeleton.sew.training import ignored_pages, load_truth, page_id

__all__ = ["Command", "tree_edges"]


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


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "--truth FILE [--crawl ID | --tree FILE] [--json]"

    def short_desc(self) -> str:
        return "Score a crawl's skeleton against a true tree"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--truth", required=True, help="true tree (JSON root + edges)")
        parser.add_argument("--crawl", help="crawl id in Redis (default: the most recent)")
        parser.add_argument("--tree", help="a tree exported by 'scrapy tree' instead of Redis")
        parser.add_argument("--json", action="store_true", help="print the scores as JSON")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        try:
            true_root, true_edges, meta = load_truth(opts.truth)
        except (OSError, ValueError, KeyError) as exc:
            raise UsageError(f"cannot read truth {opts.truth}: {exc}") from exc
        if opts.tree:
            tree, fetched = json.loads(Path(opts.tree).read_text("utf-8")), None
        else:
            assert self.settings is not None
            _, tree, fetched = load_crawl_tree(self.settings, opts.crawl)
        root, edges, nodes = tree_edges(tree)
        ignore = ignored_pages(meta, true_root)
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

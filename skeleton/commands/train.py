"""``scrapy train``: learn a SEW model from labelled sites (SEW Section 4.2)."""
from __future__ import annotations

import argparse
import sys

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from skeleton.sew.model import save_model
from skeleton.sew.training import load_labelled_site, train

__all__ = ["Command"]


class Command(ScrapyCommand):
    requires_project = False
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "--site TRUTH DIR [--site TRUTH DIR ...] -o MODEL"

    def short_desc(self) -> str:
        return "Train a SEW model on labelled sites"

    def long_desc(self) -> str:
        return ("Train SEW's parameters on labelled sites. A labelled site is a folder of "
                "pages (DIR) and its true tree (TRUTH, JSON {\"root\": URL, \"edges\": "
                "[[parent, child], ...]}); a URL's path names its file under DIR.")

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", nargs=2, action="append", metavar=("TRUTH", "DIR"),
                            default=[], help="a labelled site: truth file and page folder")
        parser.add_argument("-o", "--output", metavar="MODEL", required=True,
                            help="model file to write (JSON)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args or not opts.site:
            raise UsageError("give one or more --site TRUTH DIR")
        try:
            sites = [load_labelled_site(truth, folder) for truth, folder in opts.site]
            model = train(sites, log=lambda m: print(m, file=sys.stderr))
        except (OSError, ValueError, KeyError) as exc:
            raise UsageError(f"cannot train: {exc}") from exc
        save_model(model, opts.output)
        print(f"model written to {opts.output} (training edge F1 "
              f"{model.meta.get('training_edge_f1')})", file=sys.stderr)

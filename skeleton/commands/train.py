"""``scrapy train``: learn a SEW model from labelled sites (SEW Section 4.2), and
the block SVM of the navigation objects from labelled pages (``--blocks``)."""
from __future__ import annotations

import argparse
import sys

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from skeleton.commands._output import check_output_option
from skeleton.navobjects.labels import load_labelled_pages
from skeleton.navobjects.svm import save_svm
from skeleton.navobjects.training import train_block_svm
from skeleton.output import OutputError
from skeleton.sew.model import save_model
from skeleton.analysis.training import load_labelled_site, train

__all__ = ["Command"]


class Command(ScrapyCommand):
    requires_project = False
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return ("--site TRUTH DIR [--site TRUTH DIR ...] -o MODEL "
                "| --blocks DIR [--blocks DIR ...] --blocks-output MODEL")

    def short_desc(self) -> str:
        return "Train a SEW model on labelled sites, or the block SVM on labelled pages"

    def long_desc(self) -> str:
        return ("Train SEW's parameters on labelled sites. A labelled site is a folder of "
                "pages (DIR) and its true tree (TRUTH, JSON {\"root\": URL, \"edges\": "
                "[[parent, child], ...]}); a URL's path names its file under DIR. "
                "With --blocks, train the navigation-object block SVM on the *.html pages "
                "of DIR whose hyperlink blocks are marked data-block=\"nav_menu|nav_list|"
                "content|other\" (written as JSON to --blocks-output).")

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--site", nargs=2, action="append", metavar=("TRUTH", "DIR"),
                            default=[], help="a labelled site: truth file and page folder")
        parser.add_argument("-o", "--output", metavar="MODEL",
                            help="SEW model file to write (JSON)")
        parser.add_argument("--blocks", action="append", metavar="DIR", default=[],
                            help="a folder of pages with labelled blocks (data-block)")
        parser.add_argument("--blocks-output", metavar="MODEL",
                            help="block SVM file to write (JSON)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args or not (opts.site or opts.blocks):
            raise UsageError("give one or more --site TRUTH DIR, or --blocks DIR")
        if bool(opts.site) != bool(opts.output) or bool(opts.blocks) != bool(opts.blocks_output):
            raise UsageError("--site needs -o MODEL and --blocks needs --blocks-output MODEL")
        check_output_option(opts.output)
        check_output_option(opts.blocks_output)
        try:
            import sklearn  # noqa: F401  (training only: not in the runtime requirements)
        except ImportError:
            raise UsageError("training needs scikit-learn: pip install -r requirements-dev.txt") from None
        if opts.site:
            try:
                sites = [load_labelled_site(truth, folder) for truth, folder in opts.site]
                model = train(sites, log=lambda m: print(m, file=sys.stderr))
            except (OSError, ValueError, KeyError) as exc:
                raise UsageError(f"cannot train: {exc}") from exc
            try:
                save_model(model, opts.output)
            except OutputError as exc:
                raise UsageError(str(exc)) from None
            print(f"model written to {opts.output} (training edge F1 "
                  f"{model.meta.get('training_edge_f1')})", file=sys.stderr)
        if opts.blocks:
            try:
                pages = [(p.root, p.labels) for folder in opts.blocks for p in load_labelled_pages(folder)]
                svm = train_block_svm(pages, meta={"trained_on": list(opts.blocks)},
                                      log=lambda m: print(m, file=sys.stderr))
            except (OSError, ValueError) as exc:
                raise UsageError(f"cannot train the block SVM: {exc}") from exc
            try:
                save_svm(svm, opts.blocks_output)
            except OutputError as exc:
                raise UsageError(str(exc)) from None
            print(f"block model written to {opts.blocks_output}", file=sys.stderr)

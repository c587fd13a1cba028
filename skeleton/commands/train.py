"""``scrapy train``: learn a SEW model from labelled sites (SEW Section 4.2), and
the block SVM of the navigation objects from labelled pages (``--blocks``)."""
from __future__ import annotations

import argparse
import sys

from scrapy.exceptions import UsageError

from skeleton.cli import SkeletonCommand, option
from skeleton.files import check_output
from skeleton.navobjects.labels import load_labelled_pages
from skeleton.navobjects.svm import save_svm
from skeleton.navobjects.training import train_block_svm
from skeleton.sew.model import save_model
from skeleton.analysis.training import load_labelled_site, train

__all__ = ["Command"]


class Command(SkeletonCommand):
    """Train a SEW model on labelled sites, or the block SVM on labelled pages

    Train SEW's parameters on labelled sites. A labelled site is a folder of pages (DIR) and
    its true tree (TRUTH, JSON {"root": URL, "edges": [[parent, child], ...]}); a URL's path
    names its file under DIR. With --blocks, train the navigation-object block SVM on the
    *.html pages of DIR whose hyperlink blocks are marked
    data-block="nav_menu|nav_list|content|other" (written as JSON to --blocks-output).
    """

    requires_project = False
    usage = ("--site TRUTH DIR [--site TRUTH DIR ...] -o MODEL "
             "| --blocks DIR [--blocks DIR ...] --blocks-output MODEL")
    options = (option("--site", nargs=2, action="append", metavar=("TRUTH", "DIR"), default=[],
                      help="a labelled site: truth file and page folder"),
               option("-o", "--output", metavar="MODEL", help="SEW model file to write (JSON)"),
               option("--blocks", action="append", metavar="DIR", default=[],
                      help="a folder of pages with labelled blocks (data-block)"),
               option("--blocks-output", metavar="MODEL", help="block SVM file to write (JSON)"))

    def check_arguments(self, args: list[str], opts: argparse.Namespace) -> None:
        if args or not (opts.site or opts.blocks):
            raise UsageError("give one or more --site TRUTH DIR, or --blocks DIR")
        if bool(opts.site) != bool(opts.output) or bool(opts.blocks) != bool(opts.blocks_output):
            raise UsageError("--site needs -o MODEL and --blocks needs --blocks-output MODEL")

    def execute(self, args: list[str], opts: argparse.Namespace) -> None:
        if opts.blocks_output:
            check_output(opts.blocks_output)
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
            save_model(model, opts.output)
            print(f"model written to {opts.output} (training edge F1 "
                  f"{model.meta.get('training_edge_f1')})", file=sys.stderr)
        if opts.blocks:
            try:
                pages = [(p.root, p.labels) for folder in opts.blocks for p in load_labelled_pages(folder)]
                svm = train_block_svm(pages, meta={"trained_on": list(opts.blocks)},
                                      log=lambda m: print(m, file=sys.stderr))
            except (OSError, ValueError) as exc:
                raise UsageError(f"cannot train the block SVM: {exc}") from exc
            save_svm(svm, opts.blocks_output)
            print(f"block model written to {opts.blocks_output}", file=sys.stderr)

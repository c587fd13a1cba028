"""Train the default model shipped in ``skeleton/models/default.json``: the sites of the
training farm (``farm/``, built by ``python farm/build.py``), the eight corpus sites of
``../shared/corpus`` and the labelled sites of ``tests/sites``, each where its files are.

    python benchmarks/train_default.py [-o skeleton/models/default.json] [--edges-only]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import json  # noqa: E402

from benchmarks.corpus import corpus_sites, farm_sites, fixture_sites  # noqa: E402
from skeleton.sew.model import DEFAULT_MODEL, SEWModel, save_model  # noqa: E402
from skeleton.analysis.training import load_labelled_site, train, train_edges  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=str(ROOT / "skeleton" / "models" / "default.json"))
    ap.add_argument("--edges-only", action="store_true",
                    help="keep the shipped SEW parameters and retrain only the edge score")
    args = ap.parse_args()
    found = [s for s in farm_sites() + corpus_sites() + fixture_sites() if s.serve_dir.exists()]
    print(f"training on {len(found)} sites: {' '.join(s.name for s in found)}")
    sites = [load_labelled_site(s.truth, s.serve_dir, s.name, redirects=True) for s in found]
    if args.edges_only:
        # the shipped SEW parameters; its edge score is replaced (and may not match
        # this version's features, which is why it is retrained)
        data = json.loads((ROOT / "skeleton" / "models" / DEFAULT_MODEL).read_text("utf-8"))
        model = SEWModel(**{**data, "edges": {}})
        model.edges = train_edges(sites, model, log=print)
    else:
        model = train(sites, log=print)
    save_model(model, args.output)
    print(f"wrote {args.output}: tau={model.tau} accept={model.accept} "
          f"training edge F1 {model.meta['training_edge_f1']}")


if __name__ == "__main__":
    main()

"""Train the default model shipped in ``skeleton/models/default.json``: the eight
corpus sites of ``../shared/corpus`` plus the labelled sites of ``tests/sites``.

    python benchmarks/train_default.py [-o skeleton/models/default.json]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import corpus_sites, fixture_sites  # noqa: E402
from skeleton.sew.model import load_model, save_model  # noqa: E402
from skeleton.sew.training import load_labelled_site, train, train_edges  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=str(ROOT / "skeleton" / "models" / "default.json"))
    ap.add_argument("--edges-only", action="store_true",
                    help="keep the shipped SEW parameters and retrain only the edge score")
    args = ap.parse_args()
    sites = [load_labelled_site(s.truth, s.serve_dir, s.name) for s in corpus_sites() + fixture_sites()
             if s.serve_dir.exists()]
    if args.edges_only:
        model = load_model(None)
        model.edges = train_edges(sites, model, log=print)
    else:
        model = train(sites, log=print)
    save_model(model, args.output)
    print(f"wrote {args.output}: tau={model.tau} accept={model.accept} "
          f"training edge F1 {model.meta['training_edge_f1']}")


if __name__ == "__main__":
    main()

"""Dump a Lektor project's content tree (read-only), run with the family's python:
``python truthdump.py PROJECT_DIR OUT.json``.

Walks Lektor's own database from the root record: every record with its path, URL
path, model, and its children in the order Lektor gives them (the model's
``[children] order_by``), and whether the record's model paginates its children.
"""
import json
import sys

from lektor.project import Project


def main(project_dir: str, out: str) -> None:
    env = Project.discover(project_dir).make_env(load_plugins=False)
    pad = env.new_pad()

    def walk(rec) -> dict:
        pg = rec.datamodel.pagination_config
        return {"path": rec.path, "url_path": rec.url_path, "model": rec.datamodel.id,
                "title": rec["title"], "paginated": bool(pg.enabled),
                "per_page": pg.per_page if pg.enabled else None,
                "children": [walk(c) for c in rec.children.include_hidden(True)]}

    with open(out, "w") as f:
        json.dump(walk(pad.root), f, indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:3])

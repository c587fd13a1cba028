"""Logical schema, site model: physical and logical links, GraphML and JSON, scrapy schema."""
from __future__ import annotations

import io
import json
from pathlib import Path

import networkx as nx
from helpers import FAST, FIXTURES, run_scrapy
from lxml import etree

from skeleton.exports.schema import GRAPHML_NS, to_graphml, to_json
from skeleton.schema.site import SchemaEdge, SchemaNode, SiteSchema, correlation, site_schema

A, B, C = "http://s.test/a.html", "http://s.test/b.html", "http://s.test/c.html"


def section(kind: str, terms: list[str], links: list[str] = ()) -> dict:
    return {"type": kind, "xpath": "/html/body/div", "terms": terms, "links": list(links)}


PAGES = {
    A: [section("document_information", ["alpha"]),
        section("logical_data", ["sprocket", "flange", "factory", "gizmo"], [B]),
        section("index", ["home", "news", "about"], [B, C])],
    B: [section("document_information", ["beta"]),
        section("logical_data", ["sprocket", "flange", "factory", "widget"]),
        section("index", ["home", "news", "about"])],
    C: [section("logical_data", ["gizmo", "home", "news", "about"])],
}


def test_correlation_degree() -> None:
    assert correlation({"a", "b", "c", "d"}, {"a", "b", "x"}) == 2 / 3
    assert correlation(set(), {"a"}) == 0.0


def test_physical_and_logical_links() -> None:
    schema = site_schema(PAGES)
    edges = {(e.source, e.target, e.kind) for e in schema.edges}
    assert (f"{A}#s1", f"{B}#s0", "physical") in edges
    assert (f"{A}#s2", f"{C}#s0", "physical") in edges
    assert (f"{A}#s1", f"{B}#s1", "logical") in edges  # 3 of 4 keywords match
    assert (f"{A}#s2", f"{B}#s2", "logical") not in edges  # index to index: excluded
    assert (f"{A}#s2", f"{C}#s0", "logical") in edges  # index to data is kept
    assert len(schema.nodes) == 7


def test_entropy_weights_ignore_template_words() -> None:
    template = {"home", "news", "about"}
    schema = site_schema(PAGES, weight=lambda t: 0.1 if t in template else 0.9)
    logical = {(e.source, e.target) for e in schema.edges if e.kind == "logical"}
    assert logical == {(f"{A}#s1", f"{B}#s1")}
    node = next(n for n in schema.nodes if n.id == f"{C}#s0")
    assert node.keywords == ("gizmo",)


def test_bad_and_empty_inputs() -> None:
    assert site_schema({}).nodes == []
    odd = site_schema({A: "nonsense", B: [None, {"type": "index", "terms": [1, "x"]}]})
    assert [n.id for n in odd.nodes] == [f"{B}#s1"]
    many = {A: [section("index", [], [f"http://s.test/p{i}.html" for i in range(10_000)])],
            **{f"http://s.test/p{i}.html": [section("logical_data", ["x"])] for i in range(100)}}
    assert len(site_schema(many).edges) == 100


def test_graphml_is_valid_and_networkx_reads_it() -> None:
    data = to_graphml(site_schema(PAGES))
    root = etree.fromstring(data)
    assert root.tag == f"{{{GRAPHML_NS}}}graphml"
    keys = {k.get("id"): (k.get("for"), k.get("attr.name"), k.get("attr.type"))
            for k in root.findall(f"{{{GRAPHML_NS}}}key")}
    used = {d.get("key") for d in root.iter(f"{{{GRAPHML_NS}}}data")}
    assert used <= set(keys) and keys["d2"] == ("node", "type", "string")
    graph = nx.read_graphml(io.BytesIO(data))
    assert graph.number_of_nodes() == 7
    assert graph.nodes[f"{A}#s1"]["type"] == "logical_data"
    kinds = {d["kind"] for _, _, d in graph.edges(data=True)}
    assert kinds == {"physical", "logical"}
    assert json.loads(to_json(site_schema(PAGES), "c1"))["crawl"] == "c1"


def test_graphml_contract_as_a_reader_sees_it() -> None:
    # a physical and a logical link between the same two sections are both kept
    # (a multigraph); keywords are one space-joined string; characters XML 1.0
    # cannot hold are dropped; the weight is a double
    odd = SiteSchema([SchemaNode("http://x/a\x01b#s0", "http://x/a\x01b", "index", "/html/b\x0bx",
                                 ("k\x02w", "\u00e9t\u00e9")),
                      SchemaNode("http://x/c#s0", "http://x/c", "logical_data", "", ())],
                     [SchemaEdge("http://x/a\x01b#s0", "http://x/c#s0", "physical"),
                      SchemaEdge("http://x/a\x01b#s0", "http://x/c#s0", "logical", 0.75)])
    data = to_graphml(odd)
    root = etree.fromstring(data)
    keys = {k.get("attr.name"): (k.get("for"), k.get("attr.type")) for k in root.findall(f"{{{GRAPHML_NS}}}key")}
    assert keys == {"label": ("node", "string"), "page": ("node", "string"), "type": ("node", "string"),
                    "xpath": ("node", "string"), "keywords": ("node", "string"),
                    "kind": ("edge", "string"), "weight": ("edge", "double")}
    assert root.find(f"{{{GRAPHML_NS}}}graph").get("edgedefault") == "directed"
    graph = nx.read_graphml(io.BytesIO(data))
    assert graph.is_directed() and graph.is_multigraph()
    assert dict(graph.nodes["http://x/ab#s0"]) == {"label": "index /html/bx", "page": "http://x/ab",
                                                    "type": "index", "xpath": "/html/bx",
                                                    "keywords": "kw \u00e9t\u00e9"}
    assert graph.nodes["http://x/c#s0"]["keywords"] == "" and graph.nodes["http://x/c#s0"]["xpath"] == ""
    assert sorted((d["kind"], d["weight"]) for _, _, d in graph.edges(data=True)) == [
        ("logical", 0.75), ("physical", 1.0)]
    empty = nx.read_graphml(io.BytesIO(to_graphml(SiteSchema())))
    assert empty.number_of_nodes() == 0 and empty.is_directed()


def test_graphml_writes_a_symmetric_logical_link_once() -> None:
    graph = nx.read_graphml(io.BytesIO(to_graphml(site_schema(PAGES))))
    logical = [(u, v) for u, v, d in graph.edges(data=True) if d["kind"] == "logical"]
    assert (f"{A}#s1", f"{B}#s1") in logical and (f"{B}#s1", f"{A}#s1") not in logical
    assert all(u < v for u, v in logical) and len(set(logical)) == len(logical)
    assert graph.number_of_edges() == len(site_schema(PAGES).edges)


def test_scrapy_schema_end_to_end(serve, tmp_path: Path) -> None:
    base = serve(FIXTURES / "templatesite")
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", "mode=bfs",
                       "-a", "analyses=schema", "-O", "pages.jsonl", *FAST], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    pages = [json.loads(line) for line in (tmp_path / "pages.jsonl").read_text("utf-8").splitlines()]
    home = next(p for p in pages if p["url"] == base)
    assert [s["type"] for s in home["sections"]] == [
        "document_information", "header", "index", "interactive", "logical_data", "index", "footer"]
    done = run_scrapy(["schema", "-o", "site.graphml"], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    graph = nx.read_graphml(tmp_path / "site.graphml")
    assert graph.number_of_nodes() == sum(len(p.get("sections", [])) for p in pages)
    assert any(d["kind"] == "physical" for _, _, d in graph.edges(data=True))
    done = run_scrapy(["schema", "--format", "json"], tmp_path)
    data = json.loads(done.stdout)
    assert data["crawl"] and len(data["nodes"]) == graph.number_of_nodes()
    done = run_scrapy(["schema", "--crawl", "nope"], tmp_path)
    assert done.returncode != 0 and "no crawl 'nope' recorded" in done.stderr


def test_scrapy_schema_without_sections(serve, tmp_path: Path) -> None:
    base = serve(FIXTURES / "templatesite")
    done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", "mode=bfs",
                       "-O", "pages.jsonl", *FAST], tmp_path)  # the default: no schema
    assert done.returncode == 0, done.stderr[-3000:]
    assert "sections" not in (tmp_path / "pages.jsonl").read_text("utf-8")
    done = run_scrapy(["schema"], tmp_path)
    assert done.returncode != 0 and "-a analyses=schema" in done.stderr
    assert "SKELETON_KEEP_PAGES=True" in done.stderr


def test_scrapy_schema_from_the_pages_a_default_crawl_kept(serve, tmp_path: Path) -> None:
    """A crawl without the schema analysis that kept its pages gets the schema a
    crawl with it gives, computed afterwards from the kept pages."""
    base = serve(FIXTURES / "templatesite")
    schemas = {}
    for name, extra in (("analysed", ["-a", "analyses=schema"]), ("kept", ["-s", "SKELETON_KEEP_PAGES=True"])):
        done = run_scrapy(["crawl", "skeleton", "-a", f"base={base}index.html", "-a", "mode=bfs",
                           "-a", f"crawl={name}", *extra, "-O", f"{name}.jsonl", *FAST], tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        done = run_scrapy(["schema", "--crawl", name, "--format", "json"], tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        data = json.loads(done.stdout)
        schemas[name] = {key: value for key, value in data.items() if key != "crawl"}
    assert "sections" not in (tmp_path / "kept.jsonl").read_text("utf-8")
    assert schemas["kept"]["nodes"] and schemas["kept"] == schemas["analysed"]


def test_one_link_is_one_physical_edge() -> None:
    schema = site_schema({A: [section("index", ["x"], [B])], B: [section("document_information", [])]})
    assert [(e.source, e.target, e.kind) for e in schema.edges] == [(f"{A}#s0", f"{B}#s0", "physical")]

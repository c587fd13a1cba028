"""A shop: departments and sub-categories in a mega-menu, products filed in one sub-category,
facet pages (in the query string or coded in the path), sort orders and pagination, cart and
login pages -- none of those views are nodes."""
from __future__ import annotations

from pathlib import Path

from .common import TRUTH
from .grammar import Node, Site, esc, slug

SITES = {
    "portal-shop-query": "own portal grammar: a shop with a mega-menu, facets and sort orders in the query string "
                         "(?color=red, ?sort=price) and ?page=N pagination; facet, sort, cart and login pages are not nodes",
    "portal-shop-path": "own portal grammar: a shop whose facets are coded in the path (/shoes/c-red/s-42/), sort in the "
                        "query, path pagination; department pages list sub-categories and best sellers (cross links)",
}

VALUES = {
    "color": ["red", "blue", "black", "white", "green", "grey", "beige"],
    "size": ["xs", "s", "m", "l", "xl", "38", "40", "42", "44"],
    "brand": ["acme", "nordwerk", "lumen", "vela", "okapi", "tessa"],
    "material": ["cotton", "wool", "leather", "linen", "steel", "oak"],
}


def build(name: str, out: Path) -> dict:
    in_path = name.endswith("path")
    s = Site(name, menu="mega" if not in_path else None, pager="query" if not in_path else None)
    if in_path and s.pager_style == "query":
        s.pager_style = s.st["pager"] = "dir"
    rng = s.t.rng
    root = s.root
    scheme = s.pick("product_url", ["p", "product", "nested", "sku", "item"])
    sort_key = s.pick("sortparam", ["sort", "orderby", "order", "s"])
    sorts = rng.sample(["price-asc", "price-desc", "newest", "name", "rating", "popularity"], rng.randint(2, 3))
    n_dep = rng.randint(4, 5)
    subs: list[Node] = []
    sku = rng.randint(10000, 50000)
    for _ in range(n_dep):
        dt_ = s.t.title(1, 1)
        dep = root.add(Node(dt_, f"{slug(dt_)}/index.html", "section"))
        for _ in range(rng.randint(2, 3)):
            st = s.t.title(1, 2)
            sub = dep.add(Node(st, f"{slug(dt_)}/{slug(st)}/index.html", "section"))
            sub.data["facets"] = {f: sorted(rng.sample(VALUES[f], rng.randint(3, 4)))
                                  for f in rng.sample(list(VALUES), rng.randint(2, 3))}
            subs.append(sub)
            for _ in range(rng.randint(5, 14)):
                sku += rng.randint(1, 40)
                t = s.t.title(2, 3)
                sl = slug(t)
                path = {"p": f"p/{sl}-{sku}.html", "product": f"product/{sl}/index.html",
                        "nested": f"{sub.path.rsplit('/', 1)[0]}/{sl}.html", "sku": f"{sl}-p{sku}.html",
                        "item": f"item/{sku}/index.html"}[scheme]
                p = sub.add(Node(t, path, "page", summary=s.t.sentence(), body=s.t.paragraphs(1, 3)))
                p.data.update(price=rng.randint(900, 40000) / 100, sku=sku,
                              attrs={f: rng.choice(v) for f, v in sub.data["facets"].items()})
    s.menu = [(d.title, d.path, [(k.title, k.path) for k in d.children]) for d in root.children]
    cart, login = s.pick("cartpath", ["cart.html", "checkout/cart/index.html", "basket.html"]), "account/login.html"
    s.utility = [(s.L("login"), login), (s.L("cart"), cart)]
    s.emit(cart, s.L("cart"), f"<p>{esc(s.t.sentence())}</p>")
    s.emit(login, s.L("login"), '<form method="post"><input name="user"><input type="password" name="pw"></form>')
    for key in ("about", "contact", "imprint", "privacy"):
        p = f"info/{slug(s.L(key))}.html"
        s.footer.append((s.L(key), p))
        s.emit(p, s.L(key), s.paras(s.t.paragraphs(1, 2)))
    c = s.c
    cur = rng.choice(["€", "$", "£", "CHF"])

    def price(p):
        return f"{p.data['price']:.2f} {cur}" if cur != "$" else f"${p.data['price']:.2f}"

    def grid(frm, prods):
        cells = "".join(f'<div{c("item")}><img src="/img/{p.data["sku"]}.jpg" alt=""><h3{c("title")}>'
                        f'{s.a(frm, p.path, p.title)}</h3><span{c("meta")}>{price(p)}</span></div>' for p in prods)
        return f'<div{c("list")}>{cells}</div>' if s.layout != "tables" else \
            '<table><tr>' + "".join(f"<td>{s.a(frm, p.path, p.title)}<br>{price(p)}</td>" for p in prods) + "</tr></table>"

    def fpath(sub, f, v, f2=None, v2=None):
        base = sub.path.rsplit("/", 1)[0]
        if not in_path:
            q = f"{f}={v}" + (f"&{f2}={v2}" if f2 else "")
            return f"{sub.path}@{q}"
        return f"{base}/{f[0]}-{v}/" + (f"{f2[0]}-{v2}/" if f2 else "") + "index.html"

    def facet_box(frm, sub, sel=None):
        out = f'<div{c("facet")}><h3>{esc(s.L("filter"))}</h3>'
        for f, vals in sub.data["facets"].items():
            out += f"<h4>{esc(s.L(f))}</h4><ul>" + "".join(
                f"<li>{s.a(frm, fpath(sub, f, v), v)}</li>" for v in vals) + "</ul>"
        if sel:
            out += f'<p>{s.a(frm, sub.path, s.L("all"))}</p>'
        return out + "</div>"

    def sort_bar(frm, sub):
        return f'<div{c("meta")}>{esc(s.L("sort"))}: ' + " | ".join(
            s.a(frm, f"{sub.path}@{sort_key}={o}", o.replace("-", " ")) for o in sorts) + "</div>"

    per = rng.choice([8, 9, 12])
    for dep in root.children:
        best = [p for k in dep.children for p in k.children[:2]]
        body = f'<ul{c("sub")}>' + "".join(f"<li>{s.a(dep.path, k.path, k.title)}</li>" for k in dep.children) + "</ul>"
        body += f"<h2>{esc(s.L('mostread') if s.lang != 'en' else rng.choice(['Best sellers', 'Top picks', 'Trending now']))}</h2>"
        body += grid(dep.path, best[:6])
        s.emit(dep.path, dep.title, body, dep, side=f'<ul>{"".join(f"<li>{s.a(dep.path, k.path, k.title)}</li>" for k in dep.children)}</ul>')
    for sub in subs:
        prods = sub.children
        s.paginate(sub.path, sub.title, prods, per, sub, head_html=sort_bar(sub.path, sub),
                   side=lambda p, sub=sub: facet_box(p, sub), render=grid)
        for o in sorts:
            p = f"{sub.path}@{sort_key}={o}"
            key = {"price-asc": lambda x: x.data["price"], "price-desc": lambda x: -x.data["price"],
                   "name": lambda x: x.title}.get(o, lambda x: -x.data["sku"])
            s.emit(p, f"{sub.title}", sort_bar(p, sub) + grid(p, sorted(prods, key=key)[:per]), None,
                   s.crumbs_of(sub) + [(o.replace("-", " "), p)], side=facet_box(p, sub, True))
        fs = list(sub.data["facets"].items())
        for i, (f, vals) in enumerate(fs):
            for v in vals:
                p = fpath(sub, f, v)
                sel = [x for x in prods if x.data["attrs"][f] == v]
                extra = ""
                if i == 0 and len(fs) > 1:   # combinations with the second facet's first values
                    f2, vals2 = fs[1]
                    combo = []
                    for v2 in vals2[:2]:
                        p2 = fpath(sub, f, v, f2, v2)
                        sel2 = [x for x in sel if x.data["attrs"][f2] == v2]
                        s.emit(p2, f"{sub.title}: {v}, {v2}", (grid(p2, sel2) if sel2 else "<p>0</p>"), None,
                               s.crumbs_of(sub) + [(f"{v}, {v2}", p2)],
                               side=facet_box(p2, sub, True))
                        combo.append(s.a(p, p2, f"{s.L(f2)}: {v2}"))
                    extra = f"<p>{' · '.join(combo)}</p>"
                s.emit(p, f"{sub.title}: {v}", extra + grid(p, sel), None, s.crumbs_of(sub) + [(v, p)],
                       side=facet_box(p, sub, True))
    for sub in subs:
        for prod in sub.children:
            also = [x for x in rng.sample(subs, 2)[0].children[:3] if x is not prod]
            body = (f'<p{c("meta")}>{price(prod)} · SKU {prod.data["sku"]}</p>' + s.paras(prod.body)
                    + f'<form action="{esc(s.href(prod.path, cart))}" method="post"><button type="submit">{esc(s.L("cart"))} +</button></form>'
                    + "<ul>" + "".join(f"<li>{esc(s.L(f))}: {esc(v)}</li>" for f, v in prod.data["attrs"].items()) + "</ul>"
                    + f'<div{c("box")}><h3>{esc(s.L("related"))}</h3>{grid(prod.path, also)}</div>')
            s.emit(prod.path, prod.title, body, prod)
    s.emit("index.html", s.title, "<h2>" + esc(s.L("newest")) + "</h2>" + grid("index.html", [x for k in subs[:4] for x in k.children[:2]])
           + "".join(f'<h2>{s.a("index.html", d.path, d.title)}</h2>' for d in root.children), root)
    return s.write(out, TRUTH)

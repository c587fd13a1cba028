"""The shop_megamenu test site (see ../build.py)."""
from __future__ import annotations

import posixpath

from common import (EXT, esc, slug, root, sentence, paragraph, html5, Site)


# ========================================================== shop_megamenu
# A modern shop: header mega-menu with every category and subcategory on
# every page, product cards, facet filters with query strings, pagination,
# footer link farm.  Product pages live in a flat /p/ folder.

SHOP = [
    ("Women", [
        ("Dresses", ["Wrap Midi Dress", "Shirt Dress", "Tiered Maxi Dress",
                     "Satin Slip Dress", "Smocked Mini Dress"]),
        ("Tops & Blouses", ["Puff Sleeve Blouse", "Ribbed Tank Top",
                            "Oversized Poplin Shirt", "Wrap Front Top"]),
        ("Knitwear", ["Cable Knit Jumper", "Cropped Cardigan", "Roll Neck Sweater"]),
        ("Shoes", ["Leather Ankle Boots", "Espadrille Sandals", "Chunky Trainers",
                   "Slingback Pumps"])]),
    ("Men", [
        ("Shirts", ["Oxford Button-Down Shirt", "Linen Resort Shirt", "Flannel Overshirt",
                    "Slim Fit Poplin Shirt"]),
        ("Jackets & Coats", ["Quilted Puffer Jacket", "Wool Blend Overcoat",
                             "Waxed Field Jacket", "Denim Trucker Jacket", "Hooded Rain Parka"]),
        ("Trousers", ["Tapered Stretch Chinos", "Pleated Wool Trousers", "Relaxed Cargo Pants"])]),
    ("Home & Living", [
        ("Bedding", ["Stonewashed Linen Duvet Cover Set", "Percale Fitted Sheet",
                     "Waffle Knit Throw Blanket", "Down Alternative Pillow Pair"]),
        ("Kitchen", ["Enamelled Cast Iron Casserole Dish", "Stainless Steel Saucepan Set",
                     "Ceramic Pour-Over Coffee Maker", "Acacia Wood Chopping Board",
                     "Glass Storage Jar Set"]),
        ("Lighting", ["Rattan Pendant Lamp Shade", "Dimmable Brass Floor Lamp",
                      "Rechargeable Cordless Table Lamp"])]),
    ("Electronics", [
        ("Headphones", ["Wireless Noise Cancelling Headphones", "True Wireless Earbuds",
                        "Open-Back Studio Headphones", "Kids' Volume-Limited Headphones"]),
        ("Smart Home", ["Wi-Fi Smart Plug Twin Pack", "Video Doorbell with Night Vision",
                        "Smart Thermostat Starter Kit"])]),
    ("Sports & Outdoors", [
        ("Running", ["Cushioned Road Running Shoes", "Lightweight Packable Running Jacket",
                     "Seamless Running Tights", "Trail Hydration Vest 5L"]),
        ("Camping", ["Two-Person Backpacking Tent", "Three-Season Down Sleeping Bag",
                     "Compact Gas Camping Stove"]),
        ("Cycling", ["Padded Cycling Bib Shorts", "Aero Road Bike Helmet",
                     "USB Rechargeable Bike Light Set"]),
        ("Yoga", ["Non-Slip Cork Yoga Mat", "High-Waisted Yoga Leggings",
                  "Organic Cotton Yoga Bolster"])]),
]
SHOP_BRANDS = ["Nordhavn", "Alder & Fox", "Maison Clé", "Kestrel", "Urbanfield", "Solberg"]
SHOP_SUFFIX = [" in Sage Green", " with Recycled Fill", " - Regular Fit", "", " in Navy",
               " (Pack of 2)", " - Limited Edition", "", " in Oatmeal", ""]
SHOP_FACETS = ["color=black", "color=navy", "color=red", "sort=price-asc", "sort=newest"]
SHOP_INFO = [  # footer link farm: (column, label, path)
    ("Customer service", "Contact us", "help/contact.html"),
    ("Customer service", "Delivery information", "help/shipping.html"),
    ("Customer service", "Returns & refunds", "help/returns.html"),
    ("Customer service", "FAQ", "help/faq.html"),
    ("About us", "Our story", "about/our-story.html"),
    ("About us", "Careers", "about/careers.html"),
    ("About us", "Press", "about/press.html"),
    ("About us", "Sustainability", "about/sustainability.html"),
    ("Legal", "Terms & conditions", "legal/terms.html"),
    ("Legal", "Privacy notice", "legal/privacy.html"),
    ("Legal", "Cookie settings", "legal/cookies.html"),
    ("Legal", "Imprint", "legal/imprint.html"),
]
SHOP_UTIL = [("Find a store", "stores.html"), ("Help", "help/faq.html"),
             ("Sign in", "account/login.html"), ("Wishlist", "wishlist.html"),
             ("Bag (0)", "cart.html")]
SHOP_CSS = ("body{font-family:Helvetica,Arial,sans-serif;margin:0}.mega{display:none}"
            ".menu-item:hover .mega{display:flex}.grid{display:grid;"
            "grid-template-columns:repeat(4,1fr);gap:16px}.price{font-weight:bold}")


def shop_model(rng):
    cats, prods, sku = [], [], 1000
    for cname, subs in SHOP:
        cat = {"name": cname, "path": f"{slug(cname)}/index.html", "subs": []}
        cats.append(cat)
        for sname, items in subs:
            sub = {"name": sname, "cat": cat, "prods": [],
                   "path": f"{slug(cname)}/{slug(sname)}/index.html"}
            cat["subs"].append(sub)
            for item in items:
                sku += rng.randint(3, 40)
                name = f"{rng.choice(SHOP_BRANDS)} {item}{rng.choice(SHOP_SUFFIX)}"
                prod = {"name": name, "sku": sku, "sub": sub,
                        "path": f"p/{slug(name)}-{sku}.html",
                        "price": f"{rng.randint(9, 229)}.{rng.choice(['00', '95', '99'])}"}
                sub["prods"].append(prod)
                prods.append(prod)
    return {"cats": cats, "prods": prods}


def shop_header(m):
    items = []
    for cat in m["cats"]:
        subs = "".join(f'<li><a href="{root(x["path"])}">{esc(x["name"])}</a></li>'
                       for x in cat["subs"])
        c = slug(cat["name"])
        items.append(
            f'<li class="menu-item has-mega"><a class="menu-link" href="{root(cat["path"])}">'
            f'{esc(cat["name"])}</a>\n  <div class="mega"><div class="mega-col"><h4>Shop by '
            f'category</h4><ul>{subs}</ul></div>\n  <div class="mega-col promo"><a href="'
            f'{root("search.html?q=new&cat=" + c).replace("&", "&amp;")}">New in</a> <a href="'
            f'{root("search.html?q=sale&cat=" + c).replace("&", "&amp;")}">Sale</a></div></div></li>')
    util = "".join(f'<li><a href="{root(p)}">{esc(t)}</a></li>' for t, p in SHOP_UTIL)
    return f"""<header class="site-header">
<div class="topbar"><p class="usp">Free delivery over &euro;60 &middot; 30-day returns</p>
<ul class="utility-nav">{util}</ul></div>
<div class="brand-row"><a class="logo" href="/index.html"><img src="{EXT}/cdn/northwind-logo.svg" alt="Northwind"></a>
<form class="search" action="/search.html" method="get" role="search"><input type="search" name="q" placeholder="Search products"><button type="submit">Search</button></form></div>
<nav class="mega-nav" aria-label="Main"><ul class="menu">
{chr(10).join(items)}
<li class="menu-item sale"><a class="menu-link" href="/search.html?q=sale">Sale</a></li>
</ul></nav>
</header>"""


def shop_footer():
    cols = {}
    for col, label, p in SHOP_INFO:
        cols.setdefault(col, []).append(f'<li><a href="{root(p)}">{esc(label)}</a></li>')
    html_cols = "\n".join(f'<div class="footer-col"><h4>{c}</h4><ul>{"".join(v)}</ul></div>'
                          for c, v in cols.items())
    social = " ".join(f'<a href="{EXT}/social/{n.lower()}/northwind" aria-label="{n}">{n}</a>'
                      for n in ["Instagram", "Facebook", "Pinterest", "TikTok"])
    return f"""<footer class="site-footer">
<div class="footer-links">
{html_cols}
<div class="footer-col"><h4>Follow us</h4><p class="social">{social}</p>
<form class="newsletter" action="{EXT}/newsletter/subscribe" method="post"><input type="email" name="email"><button>Sign up</button></form></div>
</div>
<div class="footer-bottom"><span>&copy; 2024 Northwind Retail GmbH</span>
<a href="{EXT}/de/">Deutschland</a> <a href="{EXT}/fr/">France</a> <a href="{EXT}/uk/">United Kingdom</a>
<a href="javascript:void(0)" class="cookie-prefs">Cookie preferences</a></div>
</footer>"""


def shop_page(m, title, main):
    body = (f'<body>\n<a class="skip-link" href="#main">Skip to content</a>\n'
            f'{shop_header(m)}\n<main id="main">\n{main}\n</main>\n{shop_footer()}\n</body>')
    return html5(f"{title} | Northwind", body, SHOP_CSS)


def shop_crumbs(chain):
    items = "".join(f'<li><a href="{root(p)}">{esc(t)}</a></li>' for t, p in chain[:-1])
    return (f'<nav class="breadcrumb" aria-label="Breadcrumb"><ol>{items}'
            f'<li aria-current="page">{esc(chain[-1][0])}</li></ol></nav>')


def shop_card(prod):
    h = root(prod["path"])
    badge = ' <span class="badge">New</span>' if prod["sku"] % 3 == 0 else ""
    return (f'<div class="card product-card" data-sku="{prod["sku"]}">\n'
            f'  <a class="card__media" href="{h}"><img src="{EXT}/cdn/img/{prod["sku"]}.jpg" '
            f'alt="{esc(prod["name"])}" loading="lazy"></a>\n'
            f'  <div class="card__body"><a class="card__title" href="{h}">{esc(prod["name"])}</a>\n'
            f'  <span class="price">&euro;{prod["price"]}</span>{badge}\n'
            f'  <button class="wishlist-toggle" type="button" aria-label="Add to wishlist">&#9825;</button>'
            f'</div>\n</div>')


def shop_home(s, m):
    tiles = "\n".join(f'<a class="tile category-tile" href="{root(c["path"])}"><img src="{EXT}/cdn/'
                      f'tiles/{slug(c["name"])}.jpg" alt=""><span>{esc(c["name"])}</span></a>'
                      for c in m["cats"])
    trending = "\n".join(shop_card(p) for p in s.rng.sample(m["prods"], 8))
    first = m["cats"][0]["subs"][0]
    main = f"""<section class="hero"><a href="{root(first['path'])}"><img src="{EXT}/cdn/hero-spring.jpg" alt="Spring collection"></a>
<h1>The spring edit is here</h1><a class="button" href="{root(first['path'])}">Shop dresses</a></section>
<section class="category-tiles"><h2>Shop by category</h2>
{tiles}
</section>
<section class="trending"><h2>Trending now</h2><div class="grid">
{trending}
</div></section>
<section class="brand-strip">{' '.join(f'<a href="{EXT}/brands/{slug(b)}">{esc(b)}</a>' for b in SHOP_BRANDS)}</section>"""
    s.add("index.html", shop_page(m, "Clothing, home and outdoor gear", main))
    for c in m["cats"]:
        s.edge("index.html", c["path"])


def shop_category(s, m, cat):
    pills = "\n".join(f'<li><a href="{root(x["path"])}">{esc(x["name"])}</a></li>'
                      for x in cat["subs"])
    best = [x["prods"][0] for x in cat["subs"]] + [cat["subs"][0]["prods"][1]]
    main = f"""{shop_crumbs([("Home", "index.html"), (cat["name"], cat["path"])])}
<h1>{esc(cat["name"])}</h1>
<p class="intro">{paragraph(s.rng, 2, 3)}</p>
<ul class="subcat-pills">
{pills}
</ul>
<section class="bestsellers"><h2>Bestsellers in {esc(cat["name"])}</h2><div class="grid">
{chr(10).join(shop_card(p) for p in best)}
</div></section>"""
    s.add(cat["path"], shop_page(m, cat["name"], main))
    for x in cat["subs"]:
        s.edge(cat["path"], x["path"])


def shop_filters(sub):
    links = []
    for f in SHOP_FACETS:
        key, val = f.split("=")
        if key == "color":
            links.append(f'<li><a href="?{f}" rel="nofollow">{val.title()}</a></li>')
    return (f'<aside class="filters"><h3>Colour</h3><ul>{"".join(links)}</ul>'
            f'<h3>Size</h3><ul class="sizes"><li><button>S</button></li><li><button>M</button>'
            f'</li><li><button>L</button></li></ul></aside>')


def shop_subcategory(s, m, sub):
    cat, p = sub["cat"], sub["path"]
    page2 = posixpath.dirname(p) + "/page-2.html" if len(sub["prods"]) >= 4 else None
    pager = ""
    if page2:
        pager = ('<nav class="pagination" aria-label="Pages"><span aria-current="page">1</span> '
                 '<a href="page-2.html">2</a> <a href="page-2.html" rel="next">Next &rsaquo;</a></nav>')
    others = ", ".join(f'<a href="{root(x["path"])}">{esc(x["name"])}</a>'
                       for x in cat["subs"] if x is not sub)
    main = f"""{shop_crumbs([("Home", "index.html"), (cat["name"], cat["path"]), (sub["name"], p)])}
<h1>{esc(sub["name"])}</h1>
<div class="listing">{shop_filters(sub)}
<div class="results"><div class="toolbar"><span>{len(sub["prods"])} products</span>
Sort by: <a href="?sort=price-asc" rel="nofollow">Price (low to high)</a> | <a href="?sort=newest" rel="nofollow">Newest</a></div>
<div class="grid">
{chr(10).join(shop_card(x) for x in sub["prods"])}
</div>
{pager}</div></div>
<section class="seo-text"><p>{paragraph(s.rng, 2, 3)}</p><p>More in {esc(cat["name"])}: {others}</p></section>"""
    s.add(p, shop_page(m, f'{sub["name"]} - {cat["name"]}', main))
    for x in sub["prods"]:
        s.edge(p, x["path"])
    for f in SHOP_FACETS:
        s.out(f"{p}?{f}")
    if page2:
        shop_page2(s, m, sub, page2)


def shop_page2(s, m, sub, p):
    cat = sub["cat"]
    prods = list(reversed(sub["prods"]))[:3]
    main = f"""{shop_crumbs([("Home", "index.html"), (cat["name"], cat["path"]), (sub["name"], sub["path"]), ("Page 2", p)])}
<h1>{esc(sub["name"])} <small>page 2</small></h1>
<div class="grid">
{chr(10).join(shop_card(x) for x in prods)}
</div>
<nav class="pagination" aria-label="Pages"><a href="index.html" rel="prev">&lsaquo; Previous</a> <a href="index.html">1</a> <span aria-current="page">2</span></nav>"""
    s.add(p, shop_page(m, f'{sub["name"]} - page 2', main))
    s.out(p)


def shop_product(s, m, prod):
    sub, rng = prod["sub"], s.rng
    cat = sub["cat"]
    others = [x for y in cat["subs"] if y is not sub for x in y["prods"]]
    also = rng.sample(others, min(4, len(others)))
    main = f"""{shop_crumbs([("Home", "index.html"), (cat["name"], cat["path"]), (sub["name"], sub["path"]), (prod["name"], prod["path"])])}
<div class="product">
<div class="gallery"><img src="{EXT}/cdn/img/{prod["sku"]}.jpg" alt="{esc(prod["name"])}"><img src="{EXT}/cdn/img/{prod["sku"]}-2.jpg" alt=""></div>
<div class="buy-box"><h1>{esc(prod["name"])}</h1>
<p class="price">&euro;{prod["price"]}</p>
<a class="rating" href="#reviews">&#9733;&#9733;&#9733;&#9733;&#9734; ({rng.randint(2, 240)} reviews)</a>
<form class="add-to-bag" action="/cart.html" method="post"><input type="hidden" name="sku" value="{prod["sku"]}">
<button type="submit">Add to bag</button></form>
<p class="delivery">Free delivery over &euro;60. <a href="/help/shipping.html">Delivery options</a> &middot; <a href="/help/returns.html">Free returns</a></p>
<details open><summary>Product details</summary><p>{paragraph(rng)}</p></details>
<details><summary>Materials &amp; care</summary><p>{sentence(rng)}</p></details></div>
</div>
<section class="also-like"><h2>You may also like</h2><div class="grid">
{chr(10).join(shop_card(x) for x in also)}
</div></section>
<section id="reviews" class="reviews"><h2>Customer reviews</h2>
<blockquote>{sentence(rng)}</blockquote><blockquote>{sentence(rng)}</blockquote>
<a href="/account/login.html">Sign in to write a review</a></section>"""
    s.add(prod["path"], shop_page(m, prod["name"], main))


def shop_info_pages(s, m):
    pages = [(label, p) for _, label, p in SHOP_INFO]
    pages += [(t, p) for t, p in SHOP_UTIL if p not in {q for _, q in pages}]
    pages.append(("Search results", "search.html"))
    for title, p in pages:
        main = f"<h1>{esc(title)}</h1>\n<p>{paragraph(s.rng)}</p>\n<p>{paragraph(s.rng)}</p>"
        if p == "account/login.html":
            main += ('\n<form method="post" action="/account/login.html"><input name="email">'
                     '<input type="password" name="password"><button>Sign in</button></form>')
        s.add(p, shop_page(m, title, main))
        s.out(p)
    for c in m["cats"]:
        for q in ("new", "sale"):
            s.out(f"search.html?q={q}&cat={slug(c['name'])}")
    s.out("search.html?q=sale")


def build_shop_megamenu():
    s = Site("shop_megamenu", "online shop (mega-menu)",
             "Modern fashion/home shop with a header mega-menu listing every category and "
             "subcategory on every page. Home -> 5 categories -> subcategories -> product "
             "pages (flat /p/ URLs). Noise: mega-menu, product cards in 'trending', "
             "'bestsellers' and 'you may also like', facet/sort links with query strings, "
             "pagination, footer link farm.", seed=2024)
    m = shop_model(s.rng)
    shop_home(s, m)
    for cat in m["cats"]:
        shop_category(s, m, cat)
        for sub in cat["subs"]:
            shop_subcategory(s, m, sub)
    for prod in m["prods"]:
        shop_product(s, m, prod)
    shop_info_pages(s, m)
    return s

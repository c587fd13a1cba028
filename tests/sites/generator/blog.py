"""The blog test site (see ../build.py)."""
from __future__ import annotations

import datetime

from common import (EXT, MONTHS, esc, slug, pretty, fmt_date, sentence, paragraph, html5, Site)


# =================================================================== blog
# WordPress-like blog with pretty URLs (/category/travel/, /2024/03/14/slug/).
# True tree: home -> categories (-> child categories) -> posts, as in the
# category menu.  Tags, date archives, author pages and /page/N/ are noise.

BLOG_CATS = [
    ("Travel", [], [
        "Seven Days in the Lofoten Islands on a Shoestring Budget",
        "What I Packed for Three Weeks of Train Travel Across Europe",
        "A Slow Weekend in Porto: Tiles, Tascas and Sunset Views",
        "How We Planned a Road Trip Through the Scottish Highlands With Kids",
        "The Quiet Side of Kyoto: Temples Without the Crowds",
        "Is the Interrail Pass Still Worth It in 2024? An Honest Review"]),
    ("Food & Recipes", [
        ("Baking", [
            "My Foolproof Sourdough Starter Routine After Two Years of Failures",
            "Brown Butter Banana Bread With a Crackly Sugar Top",
            "Cardamom Buns Like the Ones From That Little Stockholm Bakery",
            "Why Your Pie Crust Shrinks and Five Ways to Stop It"]),
        ("Vegetarian", [
            "One-Pot Lentil and Spinach Dal for Busy Weeknights",
            "Twelve Meatless Meals My Family Actually Asks For Again",
            "Roasted Cauliflower Steaks With Tahini and Pomegranate",
            "A Beginner's Guide to Cooking With Tofu That Isn't Bland"])], []),
    ("Photography", [], [
        "Shooting Film Again: What Ten Rolls of Portra Taught Me",
        "The Only Three Lenses I Take on Every Trip",
        "How to Photograph Autumn Leaves Without Blown-Out Colours",
        "Editing Workflow: From Memory Card to Print in One Evening",
        "Street Photography Etiquette: Asking Strangers for Portraits"]),
    ("Gardening", [], [
        "Starting Tomatoes From Seed on a Cold North-Facing Windowsill",
        "No-Dig Gardening: Results From Our First Full Season",
        "Ten Perennials That Survived My Total Neglect This Summer",
        "Building a Cheap Raised Bed From Reclaimed Scaffold Boards",
        "Composting in a Small Garden Without Attracting Rats"]),
    ("Slow Living", [], [
        "Why I Deleted Social Media Apps From My Phone for a Month",
        "A Simple Sunday Reset Routine That Makes Mondays Easier",
        "Learning to Knit at Forty: Notes From a Clumsy Beginner",
        "Decluttering the Kitchen One Drawer at a Time"]),
]
BLOG_TAGS = ["budget", "europe", "family", "film", "sourdough", "seasonal", "diy",
             "mindfulness", "beginners", "weekend", "hiking", "autumn"]
BLOG_AUTHORS = [("Maren Holt", "maren"), ("Jonas Berg", "jonas")]
BLOG_PAGES = [("About", "about/index.html"), ("Contact", "contact/index.html"),
              ("Privacy Policy", "privacy-policy/index.html"), ("Log in", "wp-admin/index.html")]
BLOG_PER_PAGE = 10
BLOG_CSS = (".site{max-width:1100px;margin:auto}.content-area{float:left;width:70%}"
            ".widget-area{float:right;width:28%}.screen-reader-text{display:none}")


def blog_model(rng):
    cats, posts = [], []
    for name, subs, titles in BLOG_CATS:
        cat = {"name": name, "path": f"category/{slug(name)}/index.html", "up": None,
               "subs": [], "posts": []}
        cats.append(cat)
        for sname, stitles in subs:
            sub = {"name": sname, "path": f"category/{slug(name)}/{slug(sname)}/index.html",
                   "up": cat, "subs": [], "posts": []}
            cat["subs"].append(sub)
            cats.append(sub)
            posts += [{"title": t, "cat": sub} for t in stitles]
        posts += [{"title": t, "cat": cat} for t in titles]
    rng.shuffle(posts)
    day = datetime.date(2024, 3, 18)
    for i, post in enumerate(posts):
        day -= datetime.timedelta(days=rng.randint(4, 9) if i else 0)
        post.update(date=day, path=f"{day:%Y/%m/%d}/{slug(post['title'])}/index.html",
                    author=BLOG_AUTHORS[rng.randint(0, 1)], comments=rng.randint(0, 4),
                    excerpt=sentence(rng, 18, 28), tags=[BLOG_TAGS[i % len(BLOG_TAGS)]])
        post["tags"] += rng.sample([t for t in BLOG_TAGS if t not in post["tags"]], rng.randint(1, 2))
        post["cat"]["posts"].append(post)
    months = sorted({p["date"].strftime("%Y/%m") for p in posts}, reverse=True)
    return {"cats": cats, "posts": posts, "months": months}


def blog_cat_posts(cat):
    """Posts shown on a category archive: WordPress includes child categories."""
    posts = cat["posts"] + [p for sub in cat["subs"] for p in sub["posts"]]
    return sorted(posts, key=lambda p: p["date"], reverse=True)


def blog_header(m):
    items = []
    for cat in (c for c in m["cats"] if c["up"] is None):
        sub = ""
        if cat["subs"]:
            sub = "".join(f'<li class="menu-item menu-item-type-taxonomy"><a href="{pretty(x["path"])}">'
                          f'{esc(x["name"])}</a></li>' for x in cat["subs"])
            sub = f'<ul class="sub-menu">{sub}</ul>'
        has = " menu-item-has-children" if cat["subs"] else ""
        items.append(f'<li class="menu-item menu-item-type-taxonomy menu-item-object-category{has}">'
                     f'<a href="{pretty(cat["path"])}">{esc(cat["name"])}</a>{sub}</li>')
    pages = "".join(f'<li class="menu-item menu-item-type-post_type"><a href="{pretty(p)}">{t}</a></li>'
                    for t, p in BLOG_PAGES[:2])
    return f"""<header id="masthead" class="site-header">
<div class="site-branding"><p class="site-title"><a href="/" rel="home">Small Kitchen, Big World</a></p>
<p class="site-description">Travel, food and a slower life</p></div>
<nav id="site-navigation" class="main-navigation"><button class="menu-toggle" aria-controls="primary-menu" aria-expanded="false">Menu</button>
<ul id="primary-menu" class="menu"><li class="menu-item menu-item-home"><a href="/">Home</a></li>
{chr(10).join(items)}
{pages}</ul></nav>
</header>"""


def blog_sidebar(m):
    recent = "".join(f'<li><a href="{pretty(p["path"])}">{esc(p["title"])}</a></li>' for p in m["posts"][:5])
    cats = []
    for c in (c for c in m["cats"] if c["up"] is None):
        kids = "".join(f'<li class="cat-item"><a href="{pretty(x["path"])}">{esc(x["name"])}</a> '
                       f'({len(x["posts"])})</li>' for x in c["subs"])
        kids = f'<ul class="children">{kids}</ul>' if kids else ""
        cats.append(f'<li class="cat-item"><a href="{pretty(c["path"])}">{esc(c["name"])}</a> '
                    f'({len(blog_cat_posts(c))}){kids}</li>')
    months = "".join(f'<li><a href="/{mo}/">{MONTHS[int(mo[5:]) - 1]} {mo[:4]}</a></li>' for mo in m["months"])
    counts = {t: sum(t in p["tags"] for p in m["posts"]) for t in BLOG_TAGS}
    cloud = " ".join(f'<a href="/tag/{t}/" class="tag-cloud-link" style="font-size: {8 + 2.2 * n:.1f}pt;" '
                     f'aria-label="{t} ({n} items)">{t}</a>' for t, n in sorted(counts.items()))
    return f"""<aside id="secondary" class="widget-area">
<section id="search-2" class="widget widget_search"><form role="search" method="get" class="search-form" action="/"><input type="search" class="search-field" name="s"><input type="submit" class="search-submit" value="Search"></form></section>
<section id="recent-posts-2" class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>{recent}</ul></section>
<section id="categories-2" class="widget widget_categories"><h2 class="widget-title">Categories</h2><ul>{"".join(cats)}</ul></section>
<section id="archives-2" class="widget widget_archive"><h2 class="widget-title">Archives</h2><ul>{months}</ul></section>
<section id="tag_cloud-2" class="widget widget_tag_cloud"><h2 class="widget-title">Tags</h2><div class="tagcloud">{cloud}</div></section>
<section id="meta-2" class="widget widget_meta"><h2 class="widget-title">Meta</h2><ul><li><a href="/wp-admin/">Log in</a></li><li><a href="{EXT}/wordpress-org/">WordPress.org</a></li></ul></section>
</aside>"""


def blog_page(m, title, main):
    body = f"""<body class="wp-site-blocks">
<div id="page" class="site"><a class="skip-link screen-reader-text" href="#primary">Skip to content</a>
{blog_header(m)}
<div id="content" class="site-content">
<main id="primary" class="content-area">
{main}
</main>
{blog_sidebar(m)}
</div>
<footer id="colophon" class="site-footer"><div class="site-info">
<a href="/privacy-policy/">Privacy Policy</a> <span class="sep"> | </span>
<a href="{EXT}/wordpress-org/">Proudly powered by WordPress</a> <span class="sep"> | </span>
<a href="{EXT}/social/instagram/smallkitchenbigworld">Instagram</a> <a href="{EXT}/social/pinterest/smallkitchenbigworld">Pinterest</a>
</div></footer>
</div>
</body>"""
    return html5(f"{title} \u2013 Small Kitchen, Big World", body, BLOG_CSS)


def blog_entry_footer(post):
    tags = ", ".join(f'<a href="/tag/{t}/" rel="tag">{t}</a>' for t in post["tags"])
    cat = post["cat"]
    return (f'<footer class="entry-footer"><span class="cat-links">Posted in <a href="'
            f'{pretty(cat["path"])}" rel="category tag">{esc(cat["name"])}</a></span> '
            f'<span class="tags-links">Tagged {tags}</span> <span class="comments-link"><a href="'
            f'{pretty(post["path"])}#comments">{post["comments"]} Comments</a></span></footer>')


def blog_meta(post):
    name, nick = post["author"]
    return (f'<div class="entry-meta"><span class="posted-on">Posted on <a href="{pretty(post["path"])}"'
            f' rel="bookmark"><time class="entry-date published" datetime="{post["date"]:%Y-%m-%d}">'
            f'{fmt_date(post["date"])}</time></a></span> <span class="byline">by <span class="author '
            f'vcard"><a class="url fn n" href="/author/{nick}/">{name}</a></span></span></div>')


def blog_excerpt(post):
    h = pretty(post["path"])
    return f"""<article class="post type-post status-publish format-standard hentry">
<header class="entry-header"><h2 class="entry-title"><a href="{h}" rel="bookmark">{esc(post["title"])}</a></h2>
{blog_meta(post)}</header>
<div class="entry-summary"><p>{esc(post["excerpt"])} [&hellip;]</p>
<a class="more-link" href="{h}">Read more<span class="screen-reader-text"> "{esc(post["title"])}"</span></a></div>
{blog_entry_footer(post)}
</article>"""


def blog_pager(n, pages, link):
    out = []
    for i in range(1, pages + 1):
        out.append(f'<span aria-current="page" class="page-numbers current">{i}</span>' if i == n
                   else f'<a class="page-numbers" href="{link(i)}">{i}</a>')
    if n < pages:
        out.append(f'<a class="next page-numbers" href="{link(n + 1)}">Older posts &raquo;</a>')
    if n > 1:
        out.insert(0, f'<a class="prev page-numbers" href="{link(n - 1)}">&laquo; Newer posts</a>')
    return ('<nav class="navigation pagination" aria-label="Posts"><div class="nav-links">'
            + " ".join(out) + "</div></nav>")


def blog_listing(s, m, path, title, posts, header=""):
    """An archive-style list of excerpts (home pages, categories, tags...)."""
    main = header + "\n" + "\n".join(blog_excerpt(p) for p in posts)
    s.add(path, blog_page(m, title, main))


def blog_home(s, m):
    posts = m["posts"]
    pages = -(-len(posts) // BLOG_PER_PAGE)

    def link(i):
        return "/" if i == 1 else f"/page/{i}/"
    for n in range(1, pages + 1):
        path = "index.html" if n == 1 else f"page/{n}/index.html"
        chunk = posts[(n - 1) * BLOG_PER_PAGE: n * BLOG_PER_PAGE]
        main = "\n".join(blog_excerpt(p) for p in chunk) + "\n" + blog_pager(n, pages, link)
        s.add(path, blog_page(m, "Home" if n == 1 else f"Page {n}", main))
        if n > 1:
            s.out(path)
    for cat in (c for c in m["cats"] if c["up"] is None):
        s.edge("index.html", cat["path"])


def blog_categories(s, m):
    for cat in m["cats"]:
        browse = ""
        if cat["subs"]:
            browse = "<p>Browse: " + " &middot; ".join(
                f'<a href="{pretty(x["path"])}">{esc(x["name"])}</a>' for x in cat["subs"]) + "</p>"
        header = (f'<header class="page-header"><h1 class="page-title">Category: <span>'
                  f'{esc(cat["name"])}</span></h1><div class="archive-description"><p>'
                  f'{sentence(s.rng)}</p>{browse}</div></header>')
        blog_listing(s, m, cat["path"], cat["name"], blog_cat_posts(cat), header)
        for x in cat["subs"]:
            s.edge(cat["path"], x["path"])
        for p in cat["posts"]:
            s.edge(cat["path"], p["path"])


def blog_post(s, m, post, prev, nxt):
    rng = s.rng
    body = "\n".join(f"<p>{paragraph(rng)}</p>" for _ in range(rng.randint(3, 5)))
    nav = ""
    if prev:
        nav += (f'<div class="nav-previous"><a href="{pretty(prev["path"])}" rel="prev"><span class='
                f'"meta-nav">Previous:</span> <span class="post-title">{esc(prev["title"])}</span></a></div>')
    if nxt:
        nav += (f'<div class="nav-next"><a href="{pretty(nxt["path"])}" rel="next"><span class='
                f'"meta-nav">Next:</span> <span class="post-title">{esc(nxt["title"])}</span></a></div>')
    related = [p for p in post["cat"]["posts"] if p is not post][:3]
    rel_html = "".join(f'<li><a href="{pretty(p["path"])}">{esc(p["title"])}</a></li>' for p in related)
    comments = "".join(
        f'<li class="comment"><article class="comment-body"><footer class="comment-meta"><b class="fn">'
        f'<a href="{EXT}/~reader{rng.randint(1, 99)}" rel="external nofollow ugc" class="url">Reader {i + 1}'
        f'</a></b></footer><div class="comment-content"><p>{sentence(rng)}</p></div><div class="reply">'
        f'<a class="comment-reply-link" href="#respond">Reply</a></div></article></li>'
        for i in range(post["comments"]))
    main = f"""<article class="post type-post status-publish hentry">
<header class="entry-header"><h1 class="entry-title">{esc(post["title"])}</h1>
{blog_meta(post)}</header>
<div class="entry-content">
{body}
</div>
{blog_entry_footer(post)}
</article>
<nav class="navigation post-navigation" aria-label="Posts"><div class="nav-links">{nav}</div></nav>
<div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline">Related</h3><ul>{rel_html}</ul></div>
<div id="comments" class="comments-area"><h2 class="comments-title">{post["comments"]} thoughts on &ldquo;{esc(post["title"])}&rdquo;</h2>
<ol class="comment-list">{comments}</ol>
<div id="respond" class="comment-respond"><h3>Leave a Reply</h3><form action="/" method="post"><textarea name="comment"></textarea><input type="submit" value="Post Comment"></form></div></div>"""
    s.add(post["path"], blog_page(m, post["title"], main))


def blog_noise(s, m):
    def head(kind, name):
        return (f'<header class="page-header"><h1 class="page-title">{kind}: <span>{esc(name)}'
                f'</span></h1></header>')
    for t in BLOG_TAGS:
        p = f"tag/{t}/index.html"
        blog_listing(s, m, p, t, [x for x in m["posts"] if t in x["tags"]], head("Tag", t))
        s.out(p)
    for mo in m["months"]:
        p = f"{mo}/index.html"
        name = f"{MONTHS[int(mo[5:]) - 1]} {mo[:4]}"
        posts = [x for x in m["posts"] if x["date"].strftime("%Y/%m") == mo]
        blog_listing(s, m, p, name, posts, head("Month", name))
        s.out(p)
    for name, nick in BLOG_AUTHORS:
        p = f"author/{nick}/index.html"
        blog_listing(s, m, p, name, [x for x in m["posts"] if x["author"][1] == nick],
                     head("Author", name))
        s.out(p)
    for title, p in BLOG_PAGES:
        main = (f'<article class="page type-page"><header class="entry-header"><h1 class="entry-title">'
                f'{title}</h1></header><div class="entry-content"><p>{paragraph(s.rng)}</p>'
                f'<p><a href="mailto:hello@example.com">hello@example.com</a></p></div></article>')
        s.add(p, blog_page(m, title, main))
        s.out(p)


def build_blog():
    s = Site("blog", "blog (WordPress-like)",
             "WordPress-style blog with pretty URLs. Home (10 latest posts, excerpts, 'Read "
             "more') -> 5 categories from the category menu (Food & Recipes has 2 child "
             "categories) -> posts; each post is in exactly one category. Noise: sidebar "
             "widgets (recent posts, categories, monthly archive, tag cloud), /page/N/, "
             "post navigation, related posts, comments.", seed=777)
    m = blog_model(s.rng)
    blog_home(s, m)
    blog_categories(s, m)
    posts = m["posts"]
    for i, post in enumerate(posts):
        prev = posts[i + 1] if i + 1 < len(posts) else None
        nxt = posts[i - 1] if i > 0 else None
        blog_post(s, m, post, prev, nxt)
    blog_noise(s, m)
    return s

// Site script (copied into the site's scripts/ folder): Hexo lists a post's tags and
// categories in the order its database first stored them, which depends on the order in
// which the posts happened to be read. Store them sorted (tags by name, categories by depth
// then name) before generating, so that every build writes the same HTML.
'use strict';
hexo.extend.filter.register('before_generate', function () {
  const order = {
    Tag: (d, x) => [0, x.name],
    Category: (d, x) => {
      let depth = 0;
      for (let p = x.parent; p && d[p]; p = d[p].parent) depth++;
      return [depth, x.name];
    }
  };
  for (const name of Object.keys(order)) {
    const M = this.model(name);
    const d = M.data;
    const keyed = Object.keys(d).filter(k => d[k]).map(k => [order[name](d, d[k]), k]);
    keyed.sort((a, b) => a[0][0] - b[0][0] || (a[0][1] < b[0][1] ? -1 : a[0][1] > b[0][1] ? 1 : 0));
    M.data = Object.fromEntries(keyed.map(([, k]) => [k, d[k]]));
    M.dirty = true;
  }
}, 1);  // before Hexo's own before_generate filters (post rendering)

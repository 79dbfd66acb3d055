/* Action ids a hop at a time (runtime/action_ids.py): a chained ply that removes pieces is
   the ids of one of its routes' straight segments, the last marked as the end. The id of a
   hop from cell a to cell b of piece type t's chains is

       base + map0[t] * m0 + a * m1 + b * 2 + end      (m1 = 2 * cells)

   A chain begun is its hops so far. The graph of its piece's chain search (prelude.c's
   rc_graph: each state and its hops) says which hop may come next: one that ends a legal
   ply (rc_legal's: compulsory and maximum capture, `where`, applied), or one that goes on
   to a state from which a legal ply can still be reached. The graph is the search's own,
   each state once, so no route is ever listed. */

typedef struct {
    int r, t, c0;            /* the chain's rule, piece type and start */
    int64_t base, m1;        /* its hops' ids: base + a * m1 + b * 2 + end */
    int nodes;
    uint32_t pmask;          /* plies: a table of pmask + 1 slots */
    int *off;                /* state i's hops: rc_graph.a[off[i] .. off[i + 1]) */
    int *cell;               /* state i's cell */
    signed char *live;       /* state i: -1 not yet known, else whether a legal ply goes on from it */
    int *child;              /* per hop of kind 0: the state it goes on to */
    int *plies;              /* the legal plies of this rule, type and start by (final cell,
                                removed): open addressing, 1 + a ply's place in the list, 0 empty */
    int caps[5];             /* the room of off, cell, live, child and plies */
} Hops;

static __thread Hops rc_hops;

/* room for `need` items of `size` bytes in *p (grown by doubling); 0 or RC_ERR_MEMORY */
static int hops_room(void **p, int *cap, int need, size_t size) {
    if (need <= *cap) return 0;
    int n = *cap ? *cap : 64;
    while (n < need) n *= 2;
    void *q = realloc(*p, (size_t)n * size);
    if (!q) return RC_ERR_MEMORY;
    *p = q; *cap = n;
    return 0;
}

/* the graph of the chains of legal ply `a`'s rule, piece and start; `e` its rule's ids' row
   (vector.c's enc); the legal plies `list[0..n)`. 0 or an error */
static int hops_build(const S *s, const A *a, const int64_t *e, const A *list, int n) {
    Hops *h = &rc_hops;
    h->r = a->r; h->t = a->x[0]; h->c0 = a->x[1];
    h->base = e[0] + e[5 + a->x[0]] * e[1]; h->m1 = e[2];
    rc_graph.n = 0; rc_graph.on = 1;
    int err = rc_chains(s, h->r, h->t, h->c0);
    rc_graph.on = 0;
    if (err < 0) return err;
    int nodes = (int)rc_expanded.count, edges = rc_graph.n;
    uint32_t slots = 16, mine = 0;  /* the table: at least twice this piece's plies */
    for (int j = 0; j < n; j++) mine += list[j].r == h->r && list[j].x[0] == h->t && list[j].x[1] == h->c0;
    while (slots < 2 * mine) slots *= 2;
    if (hops_room((void **)&h->off, &h->caps[0], nodes + 1, sizeof(int)) ||
        hops_room((void **)&h->cell, &h->caps[1], nodes + 1, sizeof(int)) ||
        hops_room((void **)&h->live, &h->caps[2], nodes + 1, 1) ||
        hops_room((void **)&h->child, &h->caps[3], edges + 1, sizeof(int)) ||
        hops_room((void **)&h->plies, &h->caps[4], (int)slots, sizeof(int)))
        return RC_ERR_MEMORY;
    h->nodes = nodes;
    /* a state's hops are recorded while it is expanded, and states in the order of their ids */
    for (int i = 0; i <= nodes; i++) h->off[i] = 0;
    for (int k = 0; k < edges; k++) {
        const ChainHop *x = &rc_graph.a[k];
        if (x->from < 0 || x->from >= nodes || (k && x->from < rc_graph.a[k - 1].from)) return RC_ERR_RANGE;
        h->off[x->from + 1] = k + 1;
    }
    for (int i = 1; i <= nodes; i++) if (h->off[i] < h->off[i - 1]) h->off[i] = h->off[i - 1];
    for (int i = 0; i < nodes; i++) { h->live[i] = -1; h->cell[i] = i ? -1 : h->c0; }
    for (int k = 0; k < edges; k++) {
        const ChainHop *x = &rc_graph.a[k];
        h->child[k] = -1;
        if (x->kind != 0) continue;
        int c = chainset_find(&rc_expanded, x->to, x->removed, x->last, x->len);
        if (c < 0 || c >= nodes) return RC_ERR_RANGE;
        h->child[k] = c;
        h->cell[c] = x->to;
    }
    h->pmask = slots - 1;
    memset(h->plies, 0, slots * sizeof(int));
    for (int j = 0; j < n; j++) {
        const A *p = &list[j];
        if (p->r != h->r || p->x[0] != h->t || p->x[1] != h->c0) continue;
        uint32_t k = (uint32_t)chainset_hash(p->x[2], p->rem, 0, 0) & h->pmask;
        while (h->plies[k]) k = (k + 1) & h->pmask;
        h->plies[k] = j + 1;
    }
    return 0;
}

/* the legal ply (its place in `list`) that ends at `to` having removed `removed`, or -1 */
static int hops_ply(const A *list, int to, M removed) {
    const Hops *h = &rc_hops;
    for (uint32_t k = (uint32_t)chainset_hash(to, removed, 0, 0) & h->pmask; h->plies[k]; k = (k + 1) & h->pmask) {
        const A *a = &list[h->plies[k] - 1];
        if (a->x[2] == to && m_eq(a->rem, removed)) return h->plies[k] - 1;
    }
    return -1;
}

/* the legal ply that ends at state y itself (a chain reached its end there), or -1 */
static int hops_ends_at(const A *list, int y) {
    const Hops *h = &rc_hops;
    for (int k = h->off[y]; k < h->off[y + 1]; k++)
        if (rc_graph.a[k].kind == 2) return hops_ply(list, h->cell[y], rc_graph.a[k].removed);
    return -1;
}

/* whether a legal ply goes on from state x (one more hop at least) */
static int hops_live(const A *list, int x) {
    Hops *h = &rc_hops;
    if (h->live[x] >= 0) return h->live[x];
    int yes = 0;
    h->live[x] = 0;  /* removals only grow along a chain: no state comes round */
    for (int k = h->off[x]; k < h->off[x + 1] && !yes; k++) {
        const ChainHop *e = &rc_graph.a[k];
        if (e->kind == 1) yes = hops_ply(list, e->to, e->removed) >= 0;
        else if (e->kind == 0) yes = hops_ends_at(list, h->child[k]) >= 0 || hops_live(list, h->child[k]);
    }
    h->live[x] = (signed char)yes;
    return yes;
}

/* the ids that may come next at state x, appended to out[*k..] (room for 2 a hop) */
static void hops_next(const A *list, int x, int64_t *out, int *k) {
    const Hops *h = &rc_hops;
    int64_t from = h->base + (int64_t)h->cell[x] * h->m1;
    for (int j = h->off[x]; j < h->off[x + 1]; j++) {
        const ChainHop *e = &rc_graph.a[j];
        int64_t id = from + 2 * (int64_t)e->to;
        if (e->kind == 1) {
            if (hops_ply(list, e->to, e->removed) >= 0) out[(*k)++] = id + 1;
        } else if (e->kind == 0) {
            if (hops_ends_at(list, h->child[j]) >= 0) out[(*k)++] = id + 1;
            if (hops_live(list, h->child[j])) out[(*k)++] = id;
        }
    }
}

/* hop `id` at state x: the state it goes on to (*ply -1), or the legal ply it ends
   (*ply its place in `list`); RC_ERR_ILLEGAL if it is no legal hop there */
static int hops_take(const A *list, int x, int64_t id, int *ply) {
    const Hops *h = &rc_hops;
    int64_t rel = id - h->base - (int64_t)h->cell[x] * h->m1;
    *ply = -1;
    if (rel < 0 || rel >= h->m1) return RC_ERR_ILLEGAL;
    int to = (int)(rel / 2), end = (int)(rel % 2);
    for (int j = h->off[x]; j < h->off[x + 1]; j++) {
        const ChainHop *e = &rc_graph.a[j];
        if (e->to != to) continue;
        if (end && e->kind == 1) *ply = hops_ply(list, to, e->removed);
        if (end && e->kind == 0) *ply = hops_ends_at(list, h->child[j]);
        if (end && *ply >= 0) return x;
        if (!end && e->kind == 0 && hops_live(list, h->child[j])) return h->child[j];
    }
    return RC_ERR_ILLEGAL;
}

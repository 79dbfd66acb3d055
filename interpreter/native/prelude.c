/* rulecraft native back-end: what every game's generated C starts with, after the
   configuration macros: the contract (rulecraft.h), then the primitives the game's code
   and the solver share. A set of cells is an M: RC_W 64-bit words, cell i at bit i % 64
   of word i / 64. */
#include "rulecraft.h"

/* the word loops unrolled, so that a mask of a few words lives in registers */
#define RC_UNROLL _Pragma("GCC unroll 8")

static inline M m_zero(void) { M r; memset(&r, 0, sizeof r); return r; }
static inline M m_bit(int i) { M r = m_zero(); r.w[i >> 6] = (uint64_t)1 << (i & 63); return r; }
static inline M m_and(M a, M b) { RC_UNROLL for (int i = 0; i < RC_W; i++) a.w[i] &= b.w[i]; return a; }
static inline M m_or(M a, M b) { RC_UNROLL for (int i = 0; i < RC_W; i++) a.w[i] |= b.w[i]; return a; }
static inline M m_andn(M a, M b) { RC_UNROLL for (int i = 0; i < RC_W; i++) a.w[i] &= ~b.w[i]; return a; }
static inline M m_xor(M a, M b) { RC_UNROLL for (int i = 0; i < RC_W; i++) a.w[i] ^= b.w[i]; return a; }
static inline int m_any(M a) { uint64_t x = 0; RC_UNROLL for (int i = 0; i < RC_W; i++) x |= a.w[i]; return x != 0; }
static inline int m_eq(M a, M b) { RC_UNROLL for (int i = 0; i < RC_W; i++) if (a.w[i] != b.w[i]) return 0; return 1; }
static inline int m_pop(M a) { int n = 0; RC_UNROLL for (int i = 0; i < RC_W; i++) n += __builtin_popcountll(a.w[i]); return n; }
static inline int m_has(M a, int c) { return (int)((a.w[c >> 6] >> (c & 63)) & 1); }
static inline int m_low(M a) {
    RC_UNROLL for (int i = 0; i < RC_W; i++) if (a.w[i]) return 64 * i + __builtin_ctzll(a.w[i]);
    return -1;
}
static inline int m_high(M a) {
    RC_UNROLL for (int i = RC_W - 1; i >= 0; i--) if (a.w[i]) return 64 * i + 63 - __builtin_clzll(a.w[i]);
    return -1;
}
/* the cell a one-cell mask names (the highest of several; the last cell for none, as the
   Python back-end's `mask.bit_length() - 1` indexes its tables) */
static inline int m_cell(M a) { int c = m_high(a); return c < 0 ? RC_CELLS - 1 : c; }
static inline int m_poplow(M *a) {
    RC_UNROLL for (int i = 0; i < RC_W; i++)
        if (a->w[i]) { int c = 64 * i + __builtin_ctzll(a->w[i]); a->w[i] &= a->w[i] - 1; return c; }
    return -1;
}
/* a < b as the numbers the masks are (the order the Python back-end sorts pieces in) */
static inline int m_less(M a, M b) {
    RC_UNROLL for (int i = RC_W - 1; i >= 0; i--) if (a.w[i] != b.w[i]) return a.w[i] < b.w[i];
    return 0;
}
/* the cells of `inner` all in `outer`, and some: the language's `in` */
static inline int m_within(M inner, M outer) { return m_any(inner) && !m_any(m_andn(inner, outer)); }

static __attribute__((unused)) int buf_grow(Buf *b) {
    int cap = b->cap ? 2 * b->cap : 64;
    A *p = realloc(b->a, (size_t)cap * sizeof(A));
    if (!p) return RC_ERR_MEMORY;
    b->a = p; b->cap = cap;
    return 0;
}

static inline __attribute__((unused, always_inline)) int buf_push(Buf *b, A a) {
    if (b->n == b->cap && buf_grow(b)) return RC_ERR_MEMORY;
    b->a[b->n++] = a;
    return 0;
}

static __attribute__((unused)) void buf_free(Buf *b) { free(b->a); b->a = NULL; b->n = b->cap = 0; }

static inline A act(int32_t r, int32_t x0, int32_t x1, int32_t x2, M rem) {
    A a; a.r = r; a.x[0] = x0; a.x[1] = x1; a.x[2] = x2; a.rem = rem; return a;
}

/* the cells next to any of `cells`, along one adjacency table */
static inline M rc_adjacent(M cells, const M *adj) {
    M out = m_zero();
    while (m_any(cells)) out = m_or(out, adj[m_poplow(&cells)]);
    return out;
}

/* some cell of `a` joined to some cell of `b` by a path of adjacent cells, all in `cells`
   (a flood from a's cells, one ring at a time) */
static __attribute__((unused)) int rc_connected(M a, M b, M cells, const M *adj) {
    M seen = m_and(a, cells), front = seen;
    while (m_any(front)) {
        if (m_any(m_and(seen, b))) return 1;
        front = m_andn(m_and(rc_adjacent(front, adj), cells), seen);
        seen = m_or(seen, front);
    }
    return m_any(m_and(seen, b));
}

/* how many pieces of a counted type stand on `cells` (v: its count on cell 0, then each cell's) */
static __attribute__((unused)) int64_t rc_amount(const int64_t *v, M cells) {
    int64_t n = 0;
    while (m_any(cells)) n += v[m_poplow(&cells)];
    return n;
}

/* the cells holding low..high pieces of a counted type (v: its count on each cell) */
static __attribute__((unused)) M rc_holding(const int64_t *v, int64_t low, int64_t high) {
    M out = m_zero();
    for (int c = 0; c < RC_CELLS; c++) if (low <= v[c] && v[c] <= high) out = m_or(out, m_bit(c));
    return out;
}

/* the run of `cells` back along the track from the one cell `cell`: it, the cell before it,
   and so on while each is in `cells` (once round at most) */
static __attribute__((unused)) M rc_back_along(const int *track, const int *at, int len, M cell, M cells) {
    M out = m_zero();
    int c0 = m_low(cell);
    int i = c0 < 0 ? -1 : at[c0];
    if (i < 0) return out;
    for (int k = 0; k < len; k++) {
        int c = track[(i - k + len) % len];
        if (!m_has(cells, c)) break;
        out = m_or(out, m_bit(c));
    }
    return out;
}

/* the cell the last piece reaches when the pieces on `frm` are sown one a cell along the
   track (its `len` cells in order; at[c]: c's place on it, -1 off it), the cells of `skip`
   left out; -1: no ply (none to sow, `frm` off the track, or every cell of it skipped) */
static __attribute__((unused)) int rc_sow_end(const int64_t *v, const int *track, const int *at, int len,
                                              int frm, M skip) {
    int64_t n = v[frm];
    int i = at[frm], free = 0;
    if (n <= 0 || i < 0) return -1;
    for (int k = 0; k < len; k++) free += !m_has(skip, track[k]);
    if (!free) return -1;
    int64_t laps = (n - 1) / free;  /* whole rounds of the free cells, then the rest one by one */
    n -= laps * free;
    for (;;) {
        i = i + 1 == len ? 0 : i + 1;
        if (!m_has(skip, track[i]) && --n == 0) return track[i];
    }
}

/* the sowing itself: the pieces on `frm` taken up and put down as rc_sow_end finds them;
   `pieces`, the type's cells, kept to the cells holding some */
static __attribute__((unused)) void rc_sow(int64_t *v, M *pieces, const int *track, const int *at, int len,
                                           int frm, M skip) {
    int64_t n = v[frm];
    int i = at[frm], free = 0;
    v[frm] = 0;
    *pieces = m_andn(*pieces, m_bit(frm));
    for (int k = 0; k < len; k++) free += !m_has(skip, track[k]);
    int64_t laps = n / free;  /* whole rounds at once: a count may be large */
    n -= laps * free;
    if (laps)
        for (int k = 0; k < len; k++)
            if (!m_has(skip, track[k])) { v[track[k]] += laps; *pieces = m_or(*pieces, m_bit(track[k])); }
    while (n > 0) {
        i = i + 1 == len ? 0 : i + 1;
        int c = track[i];
        if (m_has(skip, c)) continue;
        v[c] += 1;
        *pieces = m_or(*pieces, m_bit(c));
        n -= 1;
    }
}

/* the cells of `cells` in a run of n of them in a line (windows of length n at wins[off[n]..off[n+1])) */
static __attribute__((unused)) M rc_in_line(M cells, int64_t n, const M *wins, const int *off, int longest) {
    M out = m_zero();
    if (n < 1 || n > longest) return out;
    for (int i = off[n]; i < off[n + 1]; i++) if (m_eq(m_and(cells, wins[i]), wins[i])) out = m_or(out, wins[i]);
    return out;
}

/* at least n of `cells` on one of the lines (maximal straight lines) */
static __attribute__((unused)) int rc_line(M cells, int64_t n, const M *lines, int count) {
    if (n < 1) return 0;
    for (int i = 0; i < count; i++) if (m_pop(m_and(cells, lines[i])) >= n) return 1;
    return 0;
}

/* every cell of `cells` (one or more) on one line: through[off[c]..off[c+1]) are the lines through c */
static __attribute__((unused)) int rc_aligned(M cells, const M *lines, const int *off) {
    int c = m_low(cells);
    if (c < 0) return 0;
    for (int i = off[c]; i < off[c + 1]; i++) if (!m_any(m_andn(cells, lines[i]))) return 1;
    return 0;
}

/* every cell of `cells` (one or more) on one line: the one line through its two lowest
   cells, pairs[off[c] + d] (0 if none; at d = c a line through c), where no two lines
   share two cells: one lookup in place of a test a line */
static __attribute__((unused)) int rc_aligned_pair(M cells, const M *pairs, const int *off) {
    M rest = cells;
    int c = m_poplow(&rest);
    if (c < 0) return 0;
    int d = m_low(rest);
    return !m_any(m_andn(cells, pairs[off[c] + (d < 0 ? c : d)]));  /* (a line of 0 holds no cell) */
}

/* n (1 or more) of `cells` next to each other in a line: windows of length n at wins[off[n]..off[n+1]) */
static __attribute__((unused)) int rc_run(M cells, int64_t n, const M *wins, const int *off, int longest) {
    if (n < 1 || n > longest) return 0;
    for (int i = off[n]; i < off[n + 1]; i++) if (m_eq(m_and(cells, wins[i]), wins[i])) return 1;
    return 0;
}

/* some cell of `targets` strictly nearer to cell a than to cell b, on the lattice */
static __attribute__((unused)) int rc_closer(M a, M b, M targets, const int32_t (*lat)[2], int64_t mx, int64_t my) {
    int ca = m_cell(a), cb = m_cell(b);
    int64_t ax = lat[ca][0], ay = lat[ca][1], bx = lat[cb][0], by = lat[cb][1];
    int64_t dx = 2 * mx * (ax - bx), dy = 2 * my * (ay - by);
    int64_t rhs = mx * (ax * ax - bx * bx) + my * (ay * ay - by * by);
    while (m_any(targets)) {
        int e = m_poplow(&targets);
        if (lat[e][0] * dx + lat[e][1] * dy > rhs) return 1;
    }
    return 0;
}

/* the largest projection of the cells of `targets` on each of the `n` directions (dx[i],
   dy[i]), on the lattice, into best[i]; very low for none (pyruntime._maxdot). One pass
   over the targets for every direction: a direction's loop alone would walk them n times. */
static __attribute__((unused)) void rc_maxdots(M targets, const int32_t (*lat)[2], const int64_t *dx,
                                               const int64_t *dy, int n, int64_t *best) {
    for (int i = 0; i < n; i++) best[i] = -((int64_t)1 << 62);
    while (m_any(targets)) {
        int e = m_poplow(&targets);
        int64_t x = lat[e][0], y = lat[e][1];
        for (int i = 0; i < n; i++) {
            int64_t v = x * dx[i] + y * dy[i];
            if (v > best[i]) best[i] = v;
        }
    }
}

/* ---- chained slides: a depth-first search over (cell, removed so far, last direction,
   segments), each state expanded once and numbered in the order expanded (its `id`), and
   the chains found (final cell, removed) in the order first found. Per thread, reused
   from call to call (a stamp marks what is current). */
typedef struct { M removed; int32_t c, last, len, id; uint32_t stamp; } ChainKey;
typedef struct { ChainKey *keys; uint32_t stamp, mask, count; } ChainSet;
typedef struct { int32_t c, last, len; M removed; } ChainItem;
typedef struct { ChainItem *a; int n, cap; } ChainList;

static __thread __attribute__((unused)) ChainSet rc_expanded, rc_found_set;
static __thread __attribute__((unused)) ChainList rc_stack, rc_found;

static __attribute__((unused)) int chainset_reset(ChainSet *set, uint32_t slots) {
    if (!set->keys) {
        set->keys = calloc(slots, sizeof(ChainKey));
        if (!set->keys) return RC_ERR_MEMORY;
        set->mask = slots - 1;
    }
    if (++set->stamp == 0) { memset(set->keys, 0, (size_t)(set->mask + 1) * sizeof(ChainKey)); set->stamp = 1; }
    set->count = 0;
    return 0;
}

static inline uint64_t chainset_hash(int c, M removed, int last, int len) {
    uint64_t h = (uint64_t)(c + 1) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(last + 2) * 0xC2B2AE3D27D4EB4FULL
                 ^ (uint64_t)len * 0x165667B19E3779F9ULL;
    RC_UNROLL for (int i = 0; i < RC_W; i++) h = (h ^ removed.w[i]) * 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 29);
}

/* the slot of (c, removed, last, len): its entry, or the empty slot where it would go */
static inline ChainKey *chainset_slot(const ChainSet *set, int c, M removed, int last, int len) {
    for (uint32_t k = (uint32_t)chainset_hash(c, removed, last, len) & set->mask;; k = (k + 1) & set->mask) {
        ChainKey *e = &set->keys[k];
        if (e->stamp != set->stamp) return e;
        if (e->c == c && e->last == last && e->len == len && m_eq(e->removed, removed)) return e;
    }
}

/* twice the slots, the current keys moved over with their ids (a set stays under half full) */
static __attribute__((unused)) int chainset_grow(ChainSet *set) {
    ChainSet old = *set;
    set->keys = calloc((size_t)(old.mask + 1) * 2, sizeof(ChainKey));
    if (!set->keys) { *set = old; return RC_ERR_MEMORY; }
    set->mask = old.mask * 2 + 1; set->stamp = 1;
    for (uint32_t k = 0; k <= old.mask; k++) {
        ChainKey *e = &old.keys[k];
        if (e->stamp != old.stamp) continue;
        ChainKey *to = chainset_slot(set, e->c, e->removed, e->last, e->len);
        *to = *e;
        to->stamp = 1;
    }
    free(old.keys);
    return 0;
}

/* 1 if (c, removed, last, len) is new (and now in the set, its id the count before), 0 if
   it was there */
static __attribute__((unused)) int chainset_add(ChainSet *set, int c, M removed, int last, int len) {
    ChainKey *e = chainset_slot(set, c, removed, last, len);
    if (e->stamp == set->stamp) return 0;
    e->stamp = set->stamp; e->c = c; e->last = last; e->len = len; e->removed = removed;
    e->id = (int32_t)set->count;
    if (2 * ++set->count > set->mask && chainset_grow(set)) return RC_ERR_MEMORY;
    return 1;
}

/* the id of (c, removed, last, len), or -1 if it is not in the set */
static __attribute__((unused)) int chainset_find(const ChainSet *set, int c, M removed, int last, int len) {
    const ChainKey *e = chainset_slot(set, c, removed, last, len);
    return e->stamp == set->stamp ? e->id : -1;
}

/* A chain search's graph, recorded while `on` (hops.c: action ids a hop at a time): from
   each expanded state (`from`, its id) a hop to cell `to` that ends a chain there with
   `removed` (kind 1), or that goes on to the state (to, removed, last, len) (kind 0); or
   the chain ends at the state itself, reached by the hop into it (kind 2). */
typedef struct { int32_t from, to, last, len, kind; M removed; } ChainHop;
typedef struct { ChainHop *a; int n, cap, on; } ChainGraph;

static __thread __attribute__((unused)) ChainGraph rc_graph;

static __attribute__((unused)) int chain_hop(int from, int to, M removed, int kind, int last, int len) {
    if (rc_graph.n == rc_graph.cap) {
        int cap = rc_graph.cap ? 2 * rc_graph.cap : 256;
        ChainHop *p = realloc(rc_graph.a, (size_t)cap * sizeof(ChainHop));
        if (!p) return RC_ERR_MEMORY;
        rc_graph.a = p; rc_graph.cap = cap;
    }
    ChainHop h; h.from = from; h.to = to; h.removed = removed; h.kind = kind; h.last = last; h.len = len;
    rc_graph.a[rc_graph.n++] = h;
    return 0;
}

static __attribute__((unused)) int chainlist_push(ChainList *l, int c, M removed, int last, int len) {
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        ChainItem *p = realloc(l->a, (size_t)cap * sizeof(ChainItem));
        if (!p) return RC_ERR_MEMORY;
        l->a = p; l->cap = cap;
    }
    ChainItem it; it.c = c; it.removed = removed; it.last = last; it.len = len;
    l->a[l->n++] = it;
    return 0;
}

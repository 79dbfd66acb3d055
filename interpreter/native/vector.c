/* Vectorised games (adapters/vector.py): a batch of games stepped in one call, with each
   game's legal action ids as a mask and its observation tensor written into the caller's
   arrays; and one game at a time (OneGame: OpenSpiel's states). The tables come from
   Python (action_ids.py, observation.py), once:

   enc: per rule code, [base, m0, m1, m2, hops, map0[0..k-1]]: the id of an action is
        base + map0[x0] * m0 + x1 * m1 + x2 * m2 (base -1: the rule has no ids); `hops`
        > 0 for a rule whose plies are chains of hops (hops.c), the size of its ids
   obs: per plane and observing player, [op, index, value]: op 0 nothing, 1 the cells of
        cell slot `index`, 2 everywhere 1 if int slot `index` holds `value`, 3 everywhere
        the value of int slot `index`, 4 on cell c the value of int slot `index` + c, 5 the
        cells of a chain begun, 6 where its piece stands
   pos: per cell, where it goes in a plane of `plane` numbers (a grid's row * width + col)

   A game is its flat state and, where plies are chains of hops, the ids of a chain begun:
   `pre` (RC_CELLS ids a game, each hop removing a piece) and `plen` (how many). */
#define RC_ERR_ILLEGAL (-5)

#include "hops.c"

typedef struct {
    int64_t *enc; int k;               /* RC_RULES rows of 5 + k */
    int64_t *obs; int planes;          /* planes * RC_PLAYERS rows of 3 */
    int64_t *pos; int plane;
    int ids;                           /* action ids */
    int hops;                          /* some rule's plies are chains of hops */
    Buf b;                             /* the legal plies of the game at hand */
    int64_t *out; int cap;             /* the legal ids of the game at hand */
} Vec;

void *rc_vec_new(const int64_t *enc, int k, const int64_t *obs, int planes, const int64_t *pos,
                 int plane, int ids) {
    Vec *v = calloc(1, sizeof(Vec));
    if (!v) return NULL;
    size_t rows = (size_t)RC_RULES * (size_t)(5 + k);
    v->enc = malloc(sizeof(int64_t) * rows);
    v->obs = malloc(sizeof(int64_t) * (size_t)(planes > 0 ? planes : 1) * RC_PLAYERS * 3);
    v->pos = malloc(sizeof(int64_t) * RC_CELLS);
    if (!v->enc || !v->obs || !v->pos) {
        free(v->enc); free(v->obs); free(v->pos); free(v);
        return NULL;
    }
    memcpy(v->enc, enc, sizeof(int64_t) * rows);
    memcpy(v->obs, obs, sizeof(int64_t) * (size_t)planes * RC_PLAYERS * 3);
    memcpy(v->pos, pos, sizeof(int64_t) * RC_CELLS);
    v->k = k; v->planes = planes; v->plane = plane; v->ids = ids;
    for (int r = 0; r < RC_RULES; r++) v->hops |= v->enc[(size_t)r * (size_t)(5 + k) + 4] > 0;
    return v;
}

void rc_vec_free(void *h) {
    Vec *v = h;
    if (!v) return;
    buf_free(&v->b);
    free(v->out); free(v->enc); free(v->obs); free(v->pos); free(v);
}

static const int64_t *vec_row(const Vec *v, int r) { return v->enc + (size_t)r * (size_t)(5 + v->k); }

/* a ply's id (-1 for none, and for a chain of hops) */
static int64_t vec_id(const Vec *v, const A *a) {
    const int64_t *e = vec_row(v, a->r);
    if (e[0] < 0 || e[4] || a->x[0] < 0 || a->x[0] >= v->k) return -1;
    return e[0] + e[5 + a->x[0]] * e[1] + (int64_t)a->x[1] * e[2] + (int64_t)a->x[2] * e[3];
}

/* the ids from which the hops of legal ply a's chains start (its piece at its start): -1
   if its rule's plies are not chains of hops */
static int64_t vec_chain_base(const Vec *v, const A *a) {
    const int64_t *e = vec_row(v, a->r);
    if (e[0] < 0 || !e[4] || a->x[0] < 0 || a->x[0] >= v->k) return -1;
    return e[0] + e[5 + a->x[0]] * e[1] + (int64_t)a->x[1] * e[2];
}

/* the graph (rc_hops) of the legal chains whose first hop is `id`, among the n legal plies
   in v->b: 1, 0 if no legal chain starts with it, or an error */
static int vec_chain(Vec *v, const S *s, int n, int64_t id) {
    for (int j = 0; j < n; j++) {
        int64_t g = vec_chain_base(v, &v->b.a[j]);
        if (g >= 0 && id >= g && id < g + vec_row(v, v->b.a[j].r)[2]) {
            int e = hops_build(s, &v->b.a[j], vec_row(v, v->b.a[j].r), v->b.a, n);
            return e < 0 ? e : 1;
        }
    }
    return 0;
}

/* s's legal plies listed (v->b, *n of them) and the chain begun `pre[0..len)` followed
   through its graph to the state it stands at, *x; RC_ERR_ILLEGAL if it begins no legal
   ply, or an error */
static int vec_walk(Vec *v, const S *s, const int64_t *pre, int len, int *n, int *x) {
    *n = rc_legal(s, &v->b);
    *x = 0;
    if (*n < 0) return *n;
    if (!len) return 0;
    int e = vec_chain(v, s, *n, pre[0]);
    if (e <= 0) return e ? e : RC_ERR_ILLEGAL;
    for (int i = 0; i < len; i++) {
        int ply;
        *x = hops_take(v->b.a, *x, pre[i], &ply);
        if (*x < 0) return *x;
        if (ply >= 0) return RC_ERR_ILLEGAL;  /* a hop before the last ends no ply */
    }
    return 0;
}

static int vec_room(Vec *v, int need) {
    if (need <= v->cap) return 0;
    int n = v->cap ? v->cap : 256;
    while (n < need) n *= 2;
    int64_t *p = realloc(v->out, (size_t)n * sizeof(int64_t));
    if (!p) return RC_ERR_MEMORY;
    v->out = p; v->cap = n;
    return 0;
}

/* the ids that may come next in (s, pre[0..len)), in v->out (some twice, in no order):
   their number, or an error */
static int vec_next(Vec *v, const S *s, const int64_t *pre, int len) {
    int n, x, k = 0, e = vec_walk(v, s, pre, len, &n, &x);
    if (e) return e;
    if (len) {
        if (vec_room(v, 2 * rc_graph.n + 1)) return RC_ERR_MEMORY;
        hops_next(v->b.a, x, v->out, &k);
        return k;
    }
    if (vec_room(v, n + 1)) return RC_ERR_MEMORY;
    for (int i = 0; i < n; i++) {
        int64_t id = vec_id(v, &v->b.a[i]), g = vec_chain_base(v, &v->b.a[i]);
        if (id >= 0 && id < v->ids) v->out[k++] = id;
        /* a piece's hops at its first legal ply: a generator lists a piece's plies
           together (were they apart, its hops would come twice, which ids tolerate) */
        if (g < 0 || (i && vec_chain_base(v, &v->b.a[i - 1]) == g)) continue;
        if ((e = hops_build(s, &v->b.a[i], vec_row(v, v->b.a[i].r), v->b.a, n)) < 0) return e;
        if (vec_room(v, k + 2 * rc_graph.n + n + 1)) return RC_ERR_MEMORY;
        hops_next(v->b.a, 0, v->out, &k);
    }
    return k;
}

static int vec_cmp_id(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* vec_next's ids ascending, each once: their number, or an error */
static int vec_sorted(Vec *v, const S *s, const int64_t *pre, int len) {
    int k = vec_next(v, s, pre, len);
    if (k <= 0) return k;
    qsort(v->out, (size_t)k, sizeof *v->out, vec_cmp_id);
    int m = 0;
    for (int i = 0; i < k; i++)
        if ((!m || v->out[i] != v->out[m - 1]) && v->out[i] >= 0 && v->out[i] < v->ids) v->out[m++] = v->out[i];
    return m;
}

/* the legal ids of (s, pre[0..len)) as a mask of v->ids bytes; 0 or an error */
static int vec_mask(Vec *v, const S *s, const int64_t *pre, int len, uint8_t *mask) {
    memset(mask, 0, (size_t)v->ids);
    int k = vec_next(v, s, pre, len);
    for (int i = 0; i < k; i++)
        if (v->out[i] >= 0 && v->out[i] < v->ids) mask[v->out[i]] = 1;
    return k < 0 ? k : 0;
}

/* id made in (s, pre[0..len)): 0 and the state after the ply it ends in *t; 1 if it goes
   on with a chain begun; RC_ERR_ILLEGAL if no legal ply goes on with it, or an error */
static int vec_play(Vec *v, const S *s, const int64_t *pre, int len, int64_t id, S *t) {
    int n, x, ply = -1, e = vec_walk(v, s, pre, len, &n, &x);
    if (e) return e;
    if (!len) {
        for (int j = 0; j < n && ply < 0; j++)
            if (vec_id(v, &v->b.a[j]) == id) ply = j;
        if (ply < 0 && v->hops) {
            if ((e = vec_chain(v, s, n, id)) < 0) return e;
            if (!e) return RC_ERR_ILLEGAL;
            len = 1;  /* x: the chain's first state */
        }
    }
    if (len) {
        x = hops_take(v->b.a, x, id, &ply);
        if (x < 0) return x;
        if (ply < 0) return 1;
    }
    if (ply < 0) return RC_ERR_ILLEGAL;
    e = rc_apply(s, &v->b.a[ply], t);
    return e < 0 ? e : 0;
}

/* a hop's cells: from *a to *b */
static void vec_hop_cells(const Vec *v, int64_t id, int *a, int *b) {
    *a = *b = 0;
    for (int r = 0; r < RC_RULES; r++) {
        const int64_t *e = vec_row(v, r);
        if (e[4] > 0 && id >= e[0] && id < e[0] + e[4]) {
            int64_t pair = (id - e[0]) / 2 % ((int64_t)RC_CELLS * RC_CELLS);
            *a = (int)(pair / RC_CELLS); *b = (int)(pair % RC_CELLS);
            return;
        }
    }
}

static void vec_observe(const Vec *v, const S *s, const int64_t *pre, int len, float *out) {
    int p = (int)s->v[RC_P];
    if (p < 0 || p >= RC_PLAYERS) p = 0;
    memset(out, 0, sizeof(float) * (size_t)v->planes * (size_t)v->plane);
    for (int i = 0; i < v->planes; i++) {
        const int64_t *o = v->obs + ((size_t)i * RC_PLAYERS + (size_t)p) * 3;
        float *plane = out + (size_t)i * (size_t)v->plane;
        int64_t op = o[0], ix = o[1];
        if (op == 1) {
            for (int w = 0; w < RC_W; w++) {
                uint64_t m = s->c[ix].w[w];
                while (m) {
                    int c = 64 * w + __builtin_ctzll(m);
                    m &= m - 1;
                    plane[v->pos[c]] = 1.0f;
                }
            }
        } else if (op == 2 || op == 3) {
            float x = op == 2 ? (float)(s->v[ix] == o[2]) : (float)s->v[ix];
            if (x != 0.0f) for (int c = 0; c < RC_CELLS; c++) plane[v->pos[c]] = x;
        } else if (op == 4) {
            for (int c = 0; c < RC_CELLS; c++) plane[v->pos[c]] = (float)s->v[ix + c];
        } else if ((op == 5 || op == 6) && len > 0) {
            for (int j = 0; j < len; j++) {
                int a, b;
                vec_hop_cells(v, pre[j], &a, &b);
                if (op == 5 && j == 0) plane[v->pos[a]] = 1.0f;
                if (op == 5 || j == len - 1) plane[v->pos[b]] = 1.0f;
            }
        }
    }
}

/* each player's return for an outcome code (zero-sum; see protocol.Outcome.returns) */
static void vec_returns(int o, float *r) {
    for (int q = 0; q < RC_PLAYERS; q++) r[q] = 0.0f;
    if (o < 0 || o == RC_PLAYERS) return;
    float share = 1.0f / (float)(RC_PLAYERS - 1);
    int winner = o < RC_PLAYERS, who = winner ? o : o - RC_PLAYERS - 1;
    for (int q = 0; q < RC_PLAYERS; q++)
        r[q] = q == who ? (winner ? 1.0f : -1.0f) : (winner ? -share : share);
}

#define VEC_L ((size_t)RC_NC * RC_W + RC_NI)
#define VEC_PRE(pre, i) ((pre) ? (pre) + (size_t)(i) * RC_CELLS : NULL)
#define VEC_LEN(plen, i) ((plen) ? (int)(plen)[i] : 0)

/* the masks (n * ids bytes) and observations (n * planes * plane floats) of n games (flat
   states, and chains begun: pre and plen, NULL where plies take one id); masks or obs may
   be NULL; 0 or an error */
int rc_vec_observe(void *h, int n, const uint64_t *states, const int64_t *pre, const int32_t *plen,
                   uint8_t *masks, float *obs) {
    Vec *v = h;
    for (int i = 0; i < n; i++) {
        S s;
        st_in(states + (size_t)i * VEC_L, &s);
        const int64_t *p = VEC_PRE(pre, i);
        int len = VEC_LEN(plen, i);
        if (masks) { int e = vec_mask(v, &s, p, len, masks + (size_t)i * (size_t)v->ids); if (e) return e; }
        if (obs) vec_observe(v, &s, p, len, obs + (size_t)i * (size_t)v->planes * (size_t)v->plane);
    }
    return 0;
}

/* One id in each of n games: ids[i] made in game i (states[i] and its chain begun
   rewritten), plies[i] counted when it ends a ply; rewards (n * RC_PLAYERS) each player's
   return when the game ended, else 0; term[i] the game ended, trunc[i] it reached
   max_plies (0: no limit) unended. A game with restart[i] set (it ended or was cut at the
   step before) starts again from `initial` instead, its id not read (Gymnasium's
   next-step autoreset). An id that is not legal is an error (RC_ERR_ILLEGAL, *bad the
   game), or with `penalise` it ends that game unchanged, the player to move getting
   `penalty`. Then masks and observations as rc_vec_observe. Another error stops the
   step at game *bad, its state as before its ply, or after it if its mask failed. */
int rc_vec_step(void *h, int n, uint64_t *states, int64_t *pre, int32_t *plen, const int64_t *ids,
                int64_t *plies, int64_t max_plies, const uint64_t *initial, const uint8_t *restart,
                int penalise, float penalty, float *rewards, uint8_t *term, uint8_t *trunc,
                uint8_t *masks, float *obs, int32_t *bad) {
    Vec *v = h;
    for (int i = 0; i < n; i++) {
        S s, t;
        float *r = rewards + (size_t)i * RC_PLAYERS;
        int64_t *p = VEC_PRE(pre, i);
        uint8_t *mask = masks ? masks + (size_t)i * (size_t)v->ids : NULL;
        float *ob = obs ? obs + (size_t)i * (size_t)v->planes * (size_t)v->plane : NULL;
        vec_returns(-1, r);
        if (restart && restart[i]) {
            st_in(initial, &t);
            plies[i] = 0;
            if (plen) plen[i] = 0;
            term[i] = trunc[i] = 0;
        } else {
            st_in(states + (size_t)i * VEC_L, &s);
            int len = VEC_LEN(plen, i), e = vec_play(v, &s, p, len, ids[i], &t);
            if (e == RC_ERR_ILLEGAL && !penalise) { *bad = i; return e; }
            if (e == RC_ERR_ILLEGAL) {  /* the game ends where it stands: nothing is legal in it now */
                r[s.v[RC_P] >= 0 && s.v[RC_P] < RC_PLAYERS ? s.v[RC_P] : 0] = penalty;
                term[i] = 1; trunc[i] = 0;
                if (mask) memset(mask, 0, (size_t)v->ids);
                if (ob) vec_observe(v, &s, p, len, ob);
                continue;
            }
            if (e < 0) { *bad = i; return e; }  /* (its state as it was) */
            if (e == 1) {  /* a chain goes on: the same position, one hop more */
                if (!p || !plen || len + 1 >= RC_CELLS) return RC_ERR_RANGE;
                p[len] = ids[i];
                plen[i] = len + 1;
                t = s;
            } else {
                if (plen) plen[i] = 0;
                plies[i] += 1;
                int o = rc_outcome(&t);
                vec_returns(o, r);
                term[i] = o >= 0;
                trunc[i] = o < 0 && max_plies > 0 && plies[i] >= max_plies;
            }
        }
        st_out(&t, states + (size_t)i * VEC_L);
        int len = VEC_LEN(plen, i);
        if (mask) { int e = vec_mask(v, &t, p, len, mask); if (e) { *bad = i; return e; } }
        if (ob) vec_observe(v, &t, p, len, ob);
    }
    return 0;
}

/* A uniformly random legal id for each of n games (-1 where none is), game i drawing from
   splitmix64 seeded with seed ^ (i + 1) * golden: random play without a pass over masks.
   A ply where each takes one id; a hop among the legal ids, ascending, where plies are
   chains of hops (as adapters/vector.py's Python). */
int rc_vec_random(void *h, int n, const uint64_t *states, const int64_t *pre, const int32_t *plen,
                  uint64_t seed, int64_t *ids) {
    Vec *v = h;
    for (int i = 0; i < n; i++) {
        S s;
        st_in(states + (size_t)i * VEC_L, &s);
        uint64_t x = seed ^ ((uint64_t)(i + 1) * 0x9E3779B97F4A7C15ULL);
        if (v->hops) {
            int k = vec_sorted(v, &s, VEC_PRE(pre, i), VEC_LEN(plen, i));
            if (k < 0) return k;
            ids[i] = k ? v->out[splitmix_next(&x) % (uint64_t)k] : -1;
            continue;
        }
        int k = rc_legal(&s, &v->b);
        if (k < 0) return k;
        ids[i] = k ? vec_id(v, &v->b.a[splitmix_next(&x) % (uint64_t)k]) : -1;
    }
    return 0;
}

/* ---- one game at a time (adapters/vector.py's OneGame: OpenSpiel's states) */

/* the legal ids of the flat state `st` and its chain begun pre[0..len), ascending and each
   once, into `ids` (room for v->ids); their number, or an error */
int rc_one_legal(void *h, const uint64_t *st, const int64_t *pre, int len, int64_t *ids) {
    Vec *v = h;
    S s;
    st_in(st, &s);
    int m = vec_sorted(v, &s, pre, len);
    if (m > 0) memcpy(ids, v->out, (size_t)m * sizeof(int64_t));
    return m;
}

/* id made in the flat state `st` with its chain begun pre[0..len): the result in `out`
   (the same position where a chain goes on): 2 if a chain goes on, 1 if the game ended,
   0 if not; RC_ERR_ILLEGAL if no legal ply goes on with that id, or an error */
int rc_one_step(void *h, const uint64_t *st, const int64_t *pre, int len, uint64_t *out, int64_t id) {
    Vec *v = h;
    S s, t;
    st_in(st, &s);
    int e = vec_play(v, &s, pre, len, id, &t);
    if (e < 0) return e;
    if (e == 1) { st_out(&s, out); return 2; }
    st_out(&t, out);
    return rc_outcome(&t) >= 0;
}

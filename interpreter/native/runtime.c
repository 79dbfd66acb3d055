/* rulecraft native back-end: the fixed entry points every game's library exports
   (flat states and actions for ctypes, perft, random playouts), after the game's code,
   whose rc_legal, rc_apply and rc_outcome they call (rulecraft.h declares both sides). */

static void st_in(const uint64_t *f, S *s) {
    for (int k = 0; k < RC_NC; k++) for (int w = 0; w < RC_W; w++) s->c[k].w[w] = f[k * RC_W + w];
    for (int j = 0; j < RC_NI; j++) s->v[j] = (int64_t)f[RC_NC * RC_W + j];
}

static void st_out(const S *s, uint64_t *f) {
    for (int k = 0; k < RC_NC; k++) for (int w = 0; w < RC_W; w++) f[k * RC_W + w] = s->c[k].w[w];
    for (int j = 0; j < RC_NI; j++) f[RC_NC * RC_W + j] = (uint64_t)s->v[j];
}

static void act_in(const int64_t *f, A *a) {
    a->r = (int32_t)f[0]; a->x[0] = (int32_t)f[1]; a->x[1] = (int32_t)f[2]; a->x[2] = (int32_t)f[3];
    for (int w = 0; w < RC_W; w++) a->rem.w[w] = (uint64_t)f[4 + w];
}

static void act_out(const A *a, int64_t *f) {
    f[0] = a->r; f[1] = a->x[0]; f[2] = a->x[1]; f[3] = a->x[2];
    for (int w = 0; w < RC_W; w++) f[4 + w] = (int64_t)a->rem.w[w];
}

/* the library's shape: cells, words a mask, cell slots, int slots, rules, players */
void rc_info(int64_t *out) {
    out[0] = RC_CELLS; out[1] = RC_W; out[2] = RC_NC; out[3] = RC_NI; out[4] = RC_RULES; out[5] = RC_PLAYERS;
}

/* the legal actions (at most `cap` written, 4 + RC_W numbers each); their count, or an error */
int rc_flat_legal(const uint64_t *st, int64_t *out, int cap) {
    S s; Buf b = {0};
    st_in(st, &s);
    int n = rc_legal(&s, &b);
    for (int i = 0; i < n && i < cap; i++) act_out(&b.a[i], out + (size_t)i * (4 + RC_W));
    buf_free(&b);
    return n;
}

int rc_flat_apply(const uint64_t *st, const int64_t *a, uint64_t *out) {
    S s, t; A x;
    st_in(st, &s); act_in(a, &x);
    int e = rc_apply(&s, &x, &t);
    if (e == 0) st_out(&t, out);
    return e;
}

int rc_flat_outcome(const uint64_t *st) { S s; st_in(st, &s); return rc_outcome(&s); }

/* ---- perft: leaves of the game tree to a depth (the last level counted, not made) */
static int64_t perft_rec(const S *s, int depth, Buf *bufs) {
    int n = rc_legal(s, &bufs[0]);
    if (n < 0 || depth == 1) return n;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        S child;
        int e = rc_apply(s, &bufs[0].a[i], &child);
        if (e < 0) return e;
        int64_t k = perft_rec(&child, depth - 1, bufs + 1);
        if (k < 0) return k;
        total += k;
    }
    return total;
}

typedef struct { const S *root; const A *acts; int n, depth, stride, first; int64_t total; } PerftJob;

static void *perft_worker(void *arg) {
    PerftJob *j = arg;
    Buf *bufs = calloc((size_t)j->depth, sizeof(Buf));
    if (!bufs) { j->total = RC_ERR_MEMORY; return NULL; }
    for (int i = j->first; i < j->n && j->total >= 0; i += j->stride) {
        S child;
        int e = rc_apply(j->root, &j->acts[i], &child);
        int64_t k = e < 0 ? e : perft_rec(&child, j->depth - 1, bufs);
        j->total = k < 0 ? k : j->total + k;
    }
    for (int d = 0; d < j->depth; d++) buf_free(&bufs[d]);
    free(bufs);
    return NULL;
}

/* perft(depth) from a flat state on `threads` threads (root plies shared out); the count or an error */
int64_t rc_perft(const uint64_t *st, int depth, int threads) {
    S s; Buf root = {0};
    st_in(st, &s);
    if (depth == 0) return 1;
    int n = rc_legal(&s, &root);
    if (n < 0 || depth == 1) { buf_free(&root); return n; }
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    PerftJob jobs[64]; pthread_t tid[64]; int made[64] = {0};
    for (int k = 0; k < threads; k++) {
        jobs[k] = (PerftJob){&s, root.a, n, depth, threads, k, 0};
        if (k) made[k] = !pthread_create(&tid[k], NULL, perft_worker, &jobs[k]);
    }
    perft_worker(&jobs[0]);
    for (int k = 1; k < threads; k++)  /* a thread that could not start: its share here */
        if (!made[k]) perft_worker(&jobs[k]);
    int64_t total = jobs[0].total;
    for (int k = 1; k < threads; k++) {
        if (made[k]) pthread_join(tid[k], NULL);
        if (total >= 0) total = jobs[k].total < 0 ? jobs[k].total : total + jobs[k].total;
    }
    buf_free(&root);
    return total;
}

/* ---- random playouts: game i draws from splitmix64 seeded with seed ^ (i + 1) * golden,
   a ply chosen as next() % count (analysis.SplitMix is the same generator in Python) */
static inline uint64_t splitmix_next(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* stats: wins of each player, draws, unfinished games, plies, then losses of each player
   (an `X loses` outcome of three players or more) */
#define RC_STATS (2 * RC_PLAYERS + 3)
typedef struct { S root; int64_t games, max_plies; uint64_t seed; int stride, first; int64_t st[RC_STATS]; int err; } PlayJob;

static void *playout_worker(void *arg) {
    PlayJob *j = arg;
    Buf b = {0};
    for (int64_t g = j->first; g < j->games && !j->err; g += j->stride) {
        uint64_t x = j->seed ^ ((uint64_t)(g + 1) * 0x9E3779B97F4A7C15ULL);
        S s = j->root, t;
        int64_t n = 0;
        while (n < j->max_plies) {
            int k = rc_legal(&s, &b);
            if (k < 0) { j->err = k; break; }
            if (k == 0) break;
            int e = rc_apply(&s, &b.a[splitmix_next(&x) % (uint64_t)k], &t);
            if (e < 0) { j->err = e; break; }
            s = t;
            n++;
        }
        j->st[RC_PLAYERS + 2] += n;
        int o = rc_outcome(&s);
        if (o >= 0 && o < RC_PLAYERS) j->st[o] += 1;
        else if (o == RC_PLAYERS) j->st[RC_PLAYERS] += 1;
        else if (o > RC_PLAYERS) j->st[o + 2] += 1;  /* o = RC_PLAYERS + 1 + loser */
        else j->st[RC_PLAYERS + 1] += 1;
    }
    buf_free(&b);
    return NULL;
}

/* `games` random games from a flat state: RC_STATS stats (see PlayJob) */
int rc_playouts(const uint64_t *st, int64_t games, uint64_t seed, int64_t max_plies, int threads, int64_t *stats) {
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    PlayJob *jobs = calloc((size_t)threads, sizeof(PlayJob));
    pthread_t tid[64]; int made[64] = {0};
    if (!jobs) return RC_ERR_MEMORY;
    for (int k = 0; k < threads; k++) {
        st_in(st, &jobs[k].root);
        jobs[k].games = games; jobs[k].max_plies = max_plies; jobs[k].seed = seed;
        jobs[k].stride = threads; jobs[k].first = k;
        if (k) made[k] = !pthread_create(&tid[k], NULL, playout_worker, &jobs[k]);
    }
    playout_worker(&jobs[0]);
    for (int k = 1; k < threads; k++)
        if (!made[k]) playout_worker(&jobs[k]);
    int err = jobs[0].err;
    for (int i = 0; i < RC_STATS; i++) stats[i] = jobs[0].st[i];
    for (int k = 1; k < threads; k++) {
        if (made[k]) pthread_join(tid[k], NULL);
        if (jobs[k].err) err = jobs[k].err;
        for (int i = 0; i < RC_STATS; i++) stats[i] += jobs[k].st[i];
    }
    free(jobs);
    return err;
}

/* ---- vectorised games (adapters/vector.py): a batch of games stepped in one call, with
   each game's legal action ids as a mask and its observation tensor written into the
   caller's arrays. The tables come from Python (action_ids.py, observation.py), once:

   enc: per rule code, [base, m0, m1, m2, map0[0..k-1]]: the id of an action is
        base + map0[x0] * m0 + x1 * m1 + x2 * m2 (base -1: the rule has no ids)
   obs: per plane and observing player, [op, index, value]: op 0 nothing, 1 the cells of
        cell slot `index`, 2 everywhere 1 if int slot `index` holds `value`, 3 everywhere
        the value of int slot `index`, 4 on cell c the value of int slot `index` + c
   pos: per cell, where it goes in a plane of `plane` numbers (a grid's row * width + col) */
#define RC_ERR_ILLEGAL (-5)

typedef struct {
    int64_t *enc; int k;               /* RC_RULES rows of 4 + k */
    int64_t *obs; int planes;          /* planes * RC_PLAYERS rows of 3 */
    int64_t *pos; int plane;
    int ids;                           /* action ids */
    Buf b;
} Vec;

void *rc_vec_new(const int64_t *enc, int k, const int64_t *obs, int planes, const int64_t *pos,
                 int plane, int ids) {
    Vec *v = calloc(1, sizeof(Vec));
    if (!v) return NULL;
    v->enc = malloc(sizeof(int64_t) * (size_t)RC_RULES * (size_t)(4 + k));
    v->obs = malloc(sizeof(int64_t) * (size_t)(planes > 0 ? planes : 1) * RC_PLAYERS * 3);
    v->pos = malloc(sizeof(int64_t) * RC_CELLS);
    if (!v->enc || !v->obs || !v->pos) {
        free(v->enc); free(v->obs); free(v->pos); free(v);
        return NULL;
    }
    memcpy(v->enc, enc, sizeof(int64_t) * (size_t)RC_RULES * (size_t)(4 + k));
    memcpy(v->obs, obs, sizeof(int64_t) * (size_t)planes * RC_PLAYERS * 3);
    memcpy(v->pos, pos, sizeof(int64_t) * RC_CELLS);
    v->k = k; v->planes = planes; v->plane = plane; v->ids = ids;
    return v;
}

void rc_vec_free(void *h) {
    Vec *v = h;
    if (!v) return;
    buf_free(&v->b);
    free(v->enc); free(v->obs); free(v->pos); free(v);
}

static int64_t vec_id(const Vec *v, const A *a) {
    const int64_t *e = v->enc + (size_t)a->r * (size_t)(4 + v->k);
    if (e[0] < 0 || a->x[0] < 0 || a->x[0] >= v->k) return -1;
    return e[0] + e[4 + a->x[0]] * e[1] + (int64_t)a->x[1] * e[2] + (int64_t)a->x[2] * e[3];
}

/* the legal ply of `s` whose id is `id`, as its place in v->b (-1: none); 0 or an error */
static int vec_find(Vec *v, const S *s, int64_t id, int *found) {
    int n = rc_legal(s, &v->b);
    *found = -1;
    for (int j = 0; j < n && *found < 0; j++)
        if (vec_id(v, &v->b.a[j]) == id) *found = j;
    return n < 0 ? n : 0;
}

/* the legal ids of `s` as a mask of v->ids bytes; 0 or an error */
static int vec_mask(Vec *v, const S *s, uint8_t *mask) {
    memset(mask, 0, (size_t)v->ids);
    int n = rc_legal(s, &v->b);
    for (int i = 0; i < n; i++) {
        int64_t id = vec_id(v, &v->b.a[i]);
        if (id >= 0 && id < v->ids) mask[id] = 1;
    }
    return n < 0 ? n : 0;
}

static void vec_observe(const Vec *v, const S *s, float *out) {
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

/* the masks (n * ids bytes) and observations (n * planes * plane floats) of n flat states;
   either may be NULL; 0 or an error */
int rc_vec_observe(void *h, int n, const uint64_t *states, uint8_t *masks, float *obs) {
    Vec *v = h;
    size_t L = (size_t)RC_NC * RC_W + RC_NI;
    for (int i = 0; i < n; i++) {
        S s;
        st_in(states + (size_t)i * L, &s);
        if (masks) { int e = vec_mask(v, &s, masks + (size_t)i * (size_t)v->ids); if (e) return e; }
        if (obs) vec_observe(v, &s, obs + (size_t)i * (size_t)v->planes * (size_t)v->plane);
    }
    return 0;
}

/* One ply in each of n games: ids[i] made in states[i] (rewritten), plies[i] counted;
   rewards (n * RC_PLAYERS) each player's return when the game ended, else 0; term[i] the
   game ended, trunc[i] it reached max_plies (0: no limit) unended. A game with restart[i]
   set (it ended or was cut at the step before) starts again from `initial` instead, its
   id not read (Gymnasium's next-step autoreset). An id that is not legal is an error
   (RC_ERR_ILLEGAL, *bad the game), or with `penalise` it ends that game unchanged, the
   player to move getting `penalty`. Then masks and observations as rc_vec_observe. */
int rc_vec_step(void *h, int n, uint64_t *states, const int64_t *ids, int64_t *plies,
                int64_t max_plies, const uint64_t *initial, const uint8_t *restart, int penalise,
                float penalty, float *rewards, uint8_t *term, uint8_t *trunc, uint8_t *masks,
                float *obs, int32_t *bad) {
    Vec *v = h;
    size_t L = (size_t)RC_NC * RC_W + RC_NI;
    for (int i = 0; i < n; i++) {
        S s, t;
        float *r = rewards + (size_t)i * RC_PLAYERS;
        if (restart && restart[i]) {
            st_in(initial, &t);
            plies[i] = 0;
            vec_returns(-1, r);
            term[i] = trunc[i] = 0;
        } else {
            st_in(states + (size_t)i * L, &s);
            int found, e = vec_find(v, &s, ids[i], &found);
            if (e) return e;
            if (found < 0 && !penalise) { *bad = i; return RC_ERR_ILLEGAL; }
            if (found < 0) {  /* the game ends where it stands: nothing is legal in it now */
                vec_returns(-1, r);
                r[s.v[RC_P] >= 0 && s.v[RC_P] < RC_PLAYERS ? s.v[RC_P] : 0] = penalty;
                term[i] = 1; trunc[i] = 0;
                if (masks) memset(masks + (size_t)i * (size_t)v->ids, 0, (size_t)v->ids);
                if (obs) vec_observe(v, &s, obs + (size_t)i * (size_t)v->planes * (size_t)v->plane);
                continue;
            }
            e = rc_apply(&s, &v->b.a[found], &t);
            if (e < 0) return e;
            plies[i] += 1;
            int o = rc_outcome(&t);
            vec_returns(o, r);
            term[i] = o >= 0;
            trunc[i] = o < 0 && max_plies > 0 && plies[i] >= max_plies;
        }
        st_out(&t, states + (size_t)i * L);
        if (masks) { int e = vec_mask(v, &t, masks + (size_t)i * (size_t)v->ids); if (e) return e; }
        if (obs) vec_observe(v, &t, obs + (size_t)i * (size_t)v->planes * (size_t)v->plane);
    }
    return 0;
}

/* ---- one game at a time (adapters/vector.py's OneGame: OpenSpiel's states) */
static int vec_cmp_id(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* the legal ids of the flat state `st`, ascending and each once, into `ids` (room for
   v->ids); their number, or an error */
int rc_one_legal(void *h, const uint64_t *st, int64_t *ids) {
    Vec *v = h;
    S s;
    st_in(st, &s);
    int n = rc_legal(&s, &v->b), k = 0;
    if (n < 0) return n;
    for (int i = 0; i < n; i++) {
        int64_t id = vec_id(v, &v->b.a[i]);
        if (id >= 0 && id < v->ids) ids[k++] = id;
    }
    qsort(ids, (size_t)k, sizeof *ids, vec_cmp_id);
    int m = 0;
    for (int i = 0; i < k; i++)
        if (!m || ids[i] != ids[m - 1]) ids[m++] = ids[i];
    return m;
}

/* the ply of id `id` made in the flat state `st`, the result in `out`: 1 if the game
   ended, 0 if not; RC_ERR_ILLEGAL if no legal ply has that id, or an error */
int rc_one_step(void *h, const uint64_t *st, uint64_t *out, int64_t id) {
    Vec *v = h;
    S s, t;
    st_in(st, &s);
    int found, e = vec_find(v, &s, id, &found);
    if (e) return e;
    if (found < 0) return RC_ERR_ILLEGAL;
    e = rc_apply(&s, &v->b.a[found], &t);
    if (e < 0) return e;
    st_out(&t, out);
    return rc_outcome(&t) >= 0;
}

/* A uniformly random legal id for each of n games (-1 where none is), game i drawing from
   splitmix64 seeded with seed ^ (i + 1) * golden: random play without a pass over masks. */
int rc_vec_random(void *h, int n, const uint64_t *states, uint64_t seed, int64_t *ids) {
    Vec *v = h;
    size_t L = (size_t)RC_NC * RC_W + RC_NI;
    for (int i = 0; i < n; i++) {
        S s;
        st_in(states + (size_t)i * L, &s);
        int k = rc_legal(&s, &v->b);
        if (k < 0) return k;
        uint64_t x = seed ^ ((uint64_t)(i + 1) * 0x9E3779B97F4A7C15ULL);
        ids[i] = k ? vec_id(v, &v->b.a[splitmix_next(&x) % (uint64_t)k]) : -1;
    }
    return 0;
}

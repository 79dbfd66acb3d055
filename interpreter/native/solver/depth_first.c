/* rulecraft native solver: the depth-first solve, for games whose positions never repeat.
   One unit of solver.c's translation unit (after one_pass.c; solver.c says what the solver
   does).

   Reachability and the one-pass solve each make every position's children: the one to
   find the positions, the other to read their values. Depth first, they are made once: a
   position is solved when it is first reached, from its children's values, each child
   solved before it (memoised minimax over the graph of positions, as a solver written for
   one game does). While it runs, a block holds a value a position by its index (value |
   remoteness << 2; 0 not reached; a thread's mark while it solves it): a byte while every
   remoteness fits one, which halves the pages its children are read from (a remoteness
   that does not makes it start again with 2 bytes; sv_dfs), in addresses
   reserved for all its indices, of which only the pages written are made: the positions
   near one another in the index (a ply that leaves the type placed first where it stands)
   share pages, as reachability's bitsets do. Each page made is counted against the cap. At
   the end each block is made what the one-pass solve leaves (sv_dfs_block). Where the
   pages cost too much a position, it gives up (SV_DFS_PER_POSITION).

   Its threads all search from the start, each taking children in its own order. A thread
   claims a position by writing its mark where the value goes (compare-and-swap) and alone
   stores its value and counts it; one that meets a position another thread is solving
   helps: it searches that position's children too (claiming those not yet claimed) and
   finds the same value for itself, so no thread waits. A thread that meets a position on
   its own path has found a cycle: the positions repeat, the solve gives up, the blocks are
   forgotten, and reachability and the solve the blocks' graph allows take over; so they
   do when it meets the memory cap. */

/* Where the positions are sparse in their index (Connect Four's stones ranked among all
   the cells), most of each page stays empty, and reachability's bitsets and sparse blocks
   cost far less: past SV_DFS_ALLOW bytes, more than SV_DFS_PER_POSITION a position makes
   the solve give up (Connect Four 6 x 4 would have filled the memory cap). */
#define SV_DFS_ALLOW ((uint64_t)256 << 20)
#define SV_DFS_PER_POSITION 128

typedef struct {
    S s;
    SvBlock *b;
    uint64_t i;
    int n, a;             /* its children (-1: not made yet), the next to take */
    int own;              /* whether this thread claimed it (else it helps the one that did) */
    uint32_t win, lose;   /* the quickest win among its children so far, the longest loss */
    int draw;
    int turn;             /* whether the player to move changed on the way from its parent */
    size_t kid0;          /* where its children start in SvPath.kid */
    uint64_t rt[RC_NT];   /* its types' ranks (sv_rank_from) */
    SvBlock *hint;        /* the block the last child located at this depth is in (kept
                             from frame to frame: cousins' children share blocks) */
} SvFrame;

typedef struct { S t; SvBlock *c; uint64_t ci; int turn; uint64_t rt[RC_NT]; } SvKid;  /* a child, located */

typedef struct {  /* the path from the start, and its frames' children */
    SvFrame *f;
    size_t depth, cap;
    Buf plies;            /* the plies of the frame being entered */
    SvKid *kid;           /* each frame's children, above its parent's */
    uint64_t *keys;       /* the same as block id << 40 | index (their distinct count: arcs) */
    size_t nkids, capkids;
} SvPath;

static void sv_path_free(SvPath *p) {
    buf_free(&p->plies);
    free(p->f);
    free(p->kid);
    free(p->keys);
}

/* a value's bytes, a page's values (of 4 KiB), a block's bytes and pages */
static inline int sv_dfs_shift(const Sv *sv) { return sv->dfs_wide; }
static inline int sv_dfs_page_bits(const Sv *sv) { return 12 - sv_dfs_shift(sv); }  /* log2 of: */
static inline uint64_t sv_dfs_page_values(const Sv *sv) { return (uint64_t)1 << sv_dfs_page_bits(sv); }
static inline size_t sv_dfs_bytes(const Sv *sv, const SvBlock *b) { return (size_t)b->size << sv_dfs_shift(sv); }
static inline uint64_t sv_dfs_npages(const Sv *sv, const SvBlock *b) {
    return (b->size + sv_dfs_page_values(sv) - 1) / sv_dfs_page_values(sv);
}

/* index `i`'s value in `b` (its address, read, written; the pages as they are) */
static inline void *sv_dv_at(const Sv *sv, const SvBlock *b, uint64_t i) {
    return (char *)b->dval + (i << sv_dfs_shift(sv));
}

static inline unsigned sv_dv_get(const Sv *sv, const SvBlock *b, uint64_t i) {
    void *v = sv_dv_at(sv, b, i);
    return sv->dfs_wide ? __atomic_load_n((uint16_t *)v, __ATOMIC_ACQUIRE) : __atomic_load_n((uint8_t *)v, __ATOMIC_ACQUIRE);
}

static inline void sv_dv_put(const Sv *sv, SvBlock *b, uint64_t i, unsigned x) {
    void *v = sv_dv_at(sv, b, i);
    if (sv->dfs_wide) __atomic_store_n((uint16_t *)v, (uint16_t)x, __ATOMIC_RELEASE);
    else __atomic_store_n((uint8_t *)v, (uint8_t)x, __ATOMIC_RELEASE);
}

/* index `i` of `b` set to `x` if it was not reached; whether it was, and in `*now` what
   it holds (most children are reached before: read first, the compare-and-swap only if
   not) */
static inline int sv_dv_claim(const Sv *sv, SvBlock *b, uint64_t i, unsigned x, unsigned *now) {
    if ((*now = sv_dv_get(sv, b, i)) != 0) return 0;
    void *v = sv_dv_at(sv, b, i);
    int won;
    if (sv->dfs_wide) {
        uint16_t was = 0;
        won = __atomic_compare_exchange_n((uint16_t *)v, &was, (uint16_t)x, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        *now = won ? x : was;
    } else {
        uint8_t was = 0;
        won = __atomic_compare_exchange_n((uint8_t *)v, &was, (uint8_t)x, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        *now = won ? x : was;
    }
    return won;
}

/* block `b`'s values: addresses for them all, and the bitmap of its pages made; 0 or an
   error */
static int sv_dfs_open(Sv *sv, SvBlock *b) {
    b->dtouch = sv_alloc(sv, (size_t)(sv_dfs_npages(sv, b) + 63) / 64 * 8);
    if (!b->dtouch) return RC_ERR_MEMORY;
    void *p = mmap(NULL, sv_dfs_bytes(sv, b), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) {
        sv_fail(sv, RC_ERR_MEMORY, "out of memory (addresses for a block of %llu indices)",
                (unsigned long long)b->size);
        return RC_ERR_MEMORY;
    }
    __atomic_store_n(&b->dval, p, __ATOMIC_RELEASE);  /* (after dtouch) */
    return 0;
}

/* block `b`'s values let go, and their pages no longer counted */
static void sv_dfs_close(Sv *sv, SvBlock *b) {
    if (b->dval) munmap(b->dval, sv_dfs_bytes(sv, b));
    sv_free(sv, b->dtouch, (size_t)(sv_dfs_npages(sv, b) + 63) / 64 * 8);
    __atomic_sub_fetch(&sv->used, b->dpages * 4096, __ATOMIC_RELAXED);
    b->dval = NULL;
    b->dtouch = NULL;
    b->dpages = 0;
}

/* block `b`'s values, made once (under the lock); 0 or an error */
static int sv_dfs_make(Sv *sv, SvBlock *b) {
    pthread_mutex_lock(&sv->lock);
    int e = b->dval ? 0 : sv_dfs_open(sv, b);
    pthread_mutex_unlock(&sv->lock);
    return e;
}

/* position `i` of block `b`, just claimed: counted, and its page if new counted against
   the cap; 0, 1 on an error, or with no error when the pages take too much a position
   (sv->dfs_stop) */
static int sv_dfs_count(Sv *sv, SvWork *w, SvBlock *b, uint64_t i) {
    uint64_t pg = i >> sv_dfs_page_bits(sv), bit = (uint64_t)1 << (pg & 63);  /* (no division) */
    if (!(__atomic_load_n(&b->dtouch[pg >> 6], __ATOMIC_RELAXED) & bit) &&
        !(__atomic_fetch_or(&b->dtouch[pg >> 6], bit, __ATOMIC_RELAXED) & bit)) {
        if (sv_charge(sv, 4096)) return 1;
        __atomic_add_fetch(&b->dpages, 1, __ATOMIC_RELAXED);
        uint64_t used = __atomic_load_n(&sv->used, __ATOMIC_RELAXED);
        if (used > SV_DFS_ALLOW && used > SV_DFS_PER_POSITION * sv_sum(sv, offsetof(SvWork, found))) {
            __atomic_store_n(&sv->dfs_stop, 1, __ATOMIC_RELAXED);
            return 1;
        }
    }
    w->found++;
    __atomic_add_fetch(&b->dn, 1, __ATOMIC_RELAXED);
    if (sv->max_positions && __atomic_add_fetch(&sv->positions, 1, __ATOMIC_RELAXED) > sv->max_positions) {
        sv_fail(sv, SV_ERR_POSITIONS, "more than %llu positions are reachable",
                (unsigned long long)sv->max_positions);
        return 1;
    }
    return 0;
}

/* index `i` of block `b` claimed for `mark` (`*fresh`) if it was not reached (most were:
   the rest kept apart), `*now` what it holds; 0, else as sv_dfs_count */
static inline int sv_dfs_slot(Sv *sv, SvWork *w, SvBlock *b, uint64_t i, unsigned mark, int *fresh,
                              unsigned *now) {
    if (!__atomic_load_n(&b->dval, __ATOMIC_ACQUIRE) && sv_dfs_make(sv, b)) return 1;
    *fresh = sv_dv_claim(sv, b, i, mark, now);
    return *fresh ? sv_dfs_count(sv, w, b, i) : 0;
}

/* a frame for `s` (canonical, at index `i` of `b`, its types' ranks rt) pushed on the path;
   0 or an error */
static int sv_dfs_push(Sv *sv, SvPath *p, const S *s, SvBlock *b, uint64_t i, const uint64_t *rt) {
    if (p->depth == p->cap) {
        size_t had = p->cap;
        SvFrame *f = sv_grow(sv, p->f, &p->cap, p->depth + 1, sizeof *f, 64);
        if (!f) return RC_ERR_MEMORY;
        p->f = f;
        for (size_t d = had; d < p->cap; d++) f[d].hint = NULL;
    }
    SvFrame *f = &p->f[p->depth++];
    f->s = *s;
    f->b = b;
    f->i = i;
    f->n = -1;
    f->a = 0;
    f->win = UINT32_MAX;
    f->lose = 0;
    f->draw = 0;
    f->own = 1;
    f->turn = 0;
    f->kid0 = p->nkids;
    memcpy(f->rt, rt, sizeof f->rt);
    return 0;
}

/* a child's value for the player to move in it, taken into frame `f`'s (`turn`: whether
   that player is the other) */
static inline void sv_dfs_take(SvFrame *f, unsigned x, int turn) {
    uint8_t v = (uint8_t)(x & 3);
    uint32_t r = x >> 2;
    if (v == SV_DRAW) f->draw = 1;
    else if ((v == SV_WIN) == !turn) { if (r < f->win) f->win = r; }
    else if (r > f->lose) f->lose = r;
}

/* frame `f`'s value once its children are taken (as sv_solve_unit gives it); 0 when it
   would read as a mark: in a byte, a remoteness past about 60 plies (the solve starts
   again with 2 bytes); in 2, past about 16,380 (the solves after reachability take it) */
static unsigned sv_dfs_value(Sv *sv, SvWork *w, const SvFrame *f) {
    if (f->win == UINT32_MAX && f->draw) return SV_DRAW;
    unsigned v = f->win != UINT32_MAX ? SV_WIN : SV_LOSE;
    uint64_t r = (v == SV_WIN ? f->win : f->lose) + (f->n > 0);
    if ((v | r << 2) >= sv->dfs_marks) {
        if (!sv->dfs_wide) __atomic_store_n(&sv->dfs_overflow, 1, __ATOMIC_RELAXED);
        return 0;
    }
    if (f->own && r + 1 > w->levels) w->levels = r + 1;
    return (unsigned)(v | r << 2);
}

/* whether index `i` of `b` is on path `p` (a position another thread solves, met again:
   searched through it, the path would go round for ever) */
static int sv_dfs_on_path(const SvPath *p, const SvBlock *b, uint64_t i) {
    for (size_t d = 0; d < p->depth; d++)
        if (p->f[d].i == i && p->f[d].b == b) return 1;
    return 0;
}

/* the top frame's next child taken: a frame pushed for it if this thread claimed it, or
   to help the thread that did (1); its value taken if known (0); 2 to give up (it is on
   this thread's path, or its page costs too much); else an error */
static int sv_dfs_child(Sv *sv, SvWork *w, SvPath *p, SvFrame *f, unsigned mark) {
    const SvKid *k = &p->kid[f->kid0 + (size_t)f->a++];
    SvBlock *c = k->c;
    unsigned end = (unsigned)c->ended;
    int fresh;
    unsigned x;
    if (sv_dfs_slot(sv, w, c, k->ci, end ? end : mark, &fresh, &x)) return sv_failed(sv) ? RC_ERR_MEMORY : 2;
    if (end) x = end;
    if (!end && (fresh || (x >= sv->dfs_marks && x != mark))) {
        if (!fresh && sv_dfs_on_path(p, c, k->ci)) return 2;
        if (sv_dfs_push(sv, p, &k->t, c, k->ci, k->rt)) return RC_ERR_MEMORY;
        p->f[p->depth - 1].own = fresh;
        p->f[p->depth - 1].turn = k->turn;
        return 1;
    }
    if (x == mark) return 2;
    sv_dfs_take(f, x, k->turn);
    return 0;
}

/* the top frame's `n` children made and located above the others, their values asked of
   memory at once; 0 or an error */
static int sv_dfs_kids(Sv *sv, SvWork *w, SvPath *p, SvFrame *f, int n) {
    size_t need = p->nkids + (size_t)n, room = p->capkids;  /* (the two grow alike) */
    SvKid *kid = sv_grow(sv, p->kid, &room, need, sizeof *kid, 1024);
    if (kid) p->kid = kid;
    uint64_t *keys = kid ? sv_grow(sv, p->keys, &p->capkids, need, sizeof *keys, 1024) : NULL;
    if (!keys) return RC_ERR_MEMORY;
    p->keys = keys;
    int alone = sv->nperm > 1 && sv_alone_memo(sv, w, &f->s);
    size_t turn = w->tid && n ? (size_t)w->tid * (size_t)n / (size_t)sv->threads : 0;  /* its own order */
    f->kid0 = p->nkids;
    for (int a = 0; a < n; a++) {
        SvKid *k = &p->kid[p->nkids + (size_t)a];
        size_t j = (size_t)a + turn;
        int e = rc_apply(&f->s, &p->plies.a[j < (size_t)n ? j : j - (size_t)n], &k->t);
        if (e < 0) { sv_fail(sv, e, "the rules stopped on an error"); return e; }
        k->turn = k->t.v[RC_P] != f->s.v[RC_P];
        k->c = sv_locate_from(sv, w, &k->t, &k->ci, sv_kept(sv, alone, &f->s, &k->t), &f->s, f->rt, k->rt, &f->hint);
        if (!k->c) return SV_ERR_INDEX;
        p->keys[p->nkids + (size_t)a] = (uint64_t)k->c->id << 40 | k->ci |
                                        (sv->swap ? (uint64_t)k->turn << SV_TURN_BIT : 0);
        if (__atomic_load_n(&k->c->dval, __ATOMIC_ACQUIRE)) __builtin_prefetch(sv_dv_at(sv, k->c, k->ci));
    }
    p->nkids += (size_t)n;
    f->n = n;
    return 0;
}

/* the top frame's children made, or its end value found: that value (stored if this
   thread claimed it) if it ended, 0 if it has children to take, else an error */
static int sv_dfs_enter(Sv *sv, SvWork *w, SvPath *p, SvFrame *f) {
    w->done += (uint64_t)f->own;
    int o = (int)f->s.v[RC_OUT];  /* (rc_outcome's, unless the player to move is stuck: asked
                                     only then, so that its search for a ply is not made twice) */
    if (o < 0) {
        int n = rc_legal(&f->s, &p->plies);
        if (n < 0) { sv_fail(sv, n, "the rules stopped on an error"); return n; }
        if (n || (o = rc_outcome(&f->s)) < 0) return sv_dfs_kids(sv, w, p, f, n);
    }
    uint16_t x = sv_end_value(o, f->s.v[RC_P]);
    if (!f->own) return x;
    w->ends += !f->b->ended;  /* (an ended block's positions are counted whole at the end: sv_dfs) */
    if (x != SV_DRAW && !w->levels) w->levels = 1;
    sv_dv_put(sv, f->b, f->i, x);
    return x;
}

/* the top frame, its children taken, solved: its value stored if this thread claimed it,
   and taken into its parent's; 0, or 1 to give up */
static int sv_dfs_done(Sv *sv, SvWork *w, SvPath *p, SvFrame *f) {
    unsigned x = sv_dfs_value(sv, w, f);
    if (!x) return 1;
    if (f->own) {
        w->arcs += sv_distinct_keys(p->keys + f->kid0, f->n);
        sv_dv_put(sv, f->b, f->i, x);
    }
    p->nkids = f->kid0;
    if (--p->depth) sv_dfs_take(&p->f[p->depth - 1], x, f->turn);
    return 0;
}

/* a thread's search from the start (sv->dfs_start): w->dfs_r 0 when done, 1 when it gave
   up (a cycle, pages that cost too much, or another thread gave up), else an error */
static void *sv_dfs_thread(void *arg) {
    SvWork *w = arg;
    Sv *sv = w->sv;
    unsigned mark = (sv->dfs_wide ? 0xffffu : 0xffu) - (unsigned)w->tid;
    SvPath p = {0};
    S s = *sv->dfs_start;
    uint64_t i, rt[RC_NT];
    unsigned held;
    int fresh, r = 0;
    SvBlock *b = sv_locate_from(sv, w, &s, &i, 0, NULL, NULL, rt, NULL);
    if (!b || sv_dfs_slot(sv, w, b, i, mark, &fresh, &held) || sv_dfs_push(sv, &p, &s, b, i, rt)) r = sv_failed(sv) ? -1 : 1;
    else p.f[0].own = fresh;  /* the others help the thread that claimed the start */
    while (!r && p.depth) {
        SvFrame *f = &p.f[p.depth - 1];
        unsigned known = f->own ? 0 : sv_dv_get(sv, f->b, f->i);
        int x = 0;
        if (known && known < sv->dfs_marks) x = (int)known;
        else if (f->n < 0) {  /* a frame entered (the stop asked, and progress told, as each is) */
            if (__atomic_load_n(&sv->dfs_stop, __ATOMIC_RELAXED) || sv_failed(sv)) { r = 1; break; }
            if (w->tid == 0 && !(w->done & 0xffff)) sv_tick(sv, NULL);
            x = sv_dfs_enter(sv, w, &p, f);
        }
        if (x < 0) { r = x; break; }
        if (x) {  /* it ended, or the thread helped has solved it */
            p.nkids = f->kid0;
            if (--p.depth) sv_dfs_take(&p.f[p.depth - 1], (unsigned)x, f->turn);
        } else if (f->a < f->n) {  /* its next children taken, until one's frame is pushed */
            int e;
            do e = sv_dfs_child(sv, w, &p, f, mark);
            while (!e && f->a < f->n);
            if (e < 0 || e == 2) r = e < 0 ? e : 1;
        } else {
            r = sv_dfs_done(sv, w, &p, f);
        }
    }
    sv_path_free(&p);
    if (r) __atomic_store_n(&sv->dfs_stop, 1, __ATOMIC_RELAXED);
    w->dfs_r = r < 0 || sv_failed(sv) ? -1 : r;
    return NULL;
}

/* every position reached from `start` solved depth first on the threads, into the blocks'
   values: 0, 1 when it gave up (a cycle, or pages that cost too much), or an error */
static int sv_dfs_run(Sv *sv, const S *start) {
    sv->dfs_start = start;
    sv->dfs_stop = 0;
    sv_on_threads(sv, sv_dfs_thread);  /* (one run after the others finds the start solved) */
    int r = 0;
    for (int t = 0; t < sv->threads; t++)
        if (sv->work[t].dfs_r && (!r || sv->work[t].dfs_r < 0)) r = sv->work[t].dfs_r;
    if (r < 0 && !sv_failed(sv)) sv_fail(sv, RC_ERR_MEMORY, "out of memory");
    return r < 0 ? sv->err : r;
}

/* the `n` rising indices `keys` of block `b` made its list of reached positions, with the
   directory sv_sparse_finish makes; 0 or an error */
static int sv_dfs_keys(Sv *sv, SvBlock *b, uint64_t *keys, uint64_t n) {
    int shift = sv_dir_shift(b, n);
    uint64_t ndir = ((b->size - 1) >> shift) + 1;
    uint64_t *dir = sv_alloc(sv, (size_t)(ndir + 1) * 8);
    if (!dir) return RC_ERR_MEMORY;
    for (uint64_t d = 0; d < n; d++) dir[(keys[d] >> shift) + 1]++;
    for (uint64_t j = 1; j <= ndir; j++) dir[j] += dir[j - 1];
    b->keys = keys;
    b->dir = dir;
    b->ndir = ndir;
    b->dshift = shift;
    return 0;
}

/* block `b`'s values made what the one-pass solve leaves: its reached indices (a bitset,
   or a rising list when they are few, as sparse blocks are), its count, and unless it
   ended its values by local id; 0 or an error */
static int sv_dfs_block(Sv *sv, SvBlock *b) {
    uint64_t n = b->dn, d = 0;
    int list = b->size > sv->sparse_above && n <= b->size / SV_DENSE_AT;
    uint16_t *val = b->ended ? NULL : sv_block_alloc(sv, b, n * 2);
    uint64_t *keys = list ? sv_alloc(sv, (size_t)n * 8) : NULL;
    uint64_t *reach = list ? NULL : sv_block_alloc(sv, b, (size_t)b->words * 8);
    if ((!b->ended && !val) || (list && !keys) || (!list && !reach)) {
        sv_block_free(sv, b, val, n * 2);
        sv_free(sv, keys, (size_t)n * 8);
        sv_block_free(sv, b, reach, (size_t)b->words * 8);
        return RC_ERR_MEMORY;
    }
    /* the pages made, in index order, a word of values at a time: most of a page is
       indices not reached (0), and so is a last page past the block's end */
    const uint64_t *word = b->dval;
    uint64_t per_word = 8 >> sv_dfs_shift(sv);
    for (uint64_t pg = 0; pg < sv_dfs_npages(sv, b); pg++) {
        if (!(b->dtouch[pg >> 6] >> (pg & 63) & 1)) continue;
        for (uint64_t i = pg * sv_dfs_page_values(sv), i1 = i + sv_dfs_page_values(sv); i < i1; i++) {
            if (!(i & (per_word - 1)) && !word[(i << sv_dfs_shift(sv)) >> 3]) {  /* (no division) */
                i += per_word - 1;
                continue;
            }
            uint16_t x = (uint16_t)sv_dv_get(sv, b, i);
            if (!x) continue;
            if (list) keys[d] = i;
            else reach[i >> 6] |= (uint64_t)1 << (i & 63);
            if (val) val[d] = x;
            d++;
        }
    }
    sv_dfs_close(sv, b);
    b->count = n;
    b->val = val;
    b->sparse = 0;
    if (list) return sv_dfs_keys(sv, b, keys, n);
    b->reach = reach;
    return sv_prefix(sv, b);
}

/* every block let go, for reachability to start over */
static void sv_dfs_forget(Sv *sv) {
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        sv_dfs_close(sv, b);
        sv_sparse_free(sv, b);
        pthread_mutex_destroy(&b->mu);
        sv_free(sv, b, sizeof *b);
    }
    sv->nblocks = 0;
    memset(sv->table, 0, sv->tcap * sizeof *sv->table);
    for (int t = 0; t < SV_MAX_THREADS; t++) {
        SvWork *w = &sv->work[t];
        memset(w->recent, 0, sizeof w->recent);
        w->hint = NULL;
        w->nrecent = w->hit = 0;
        w->edge_from = w->edge_to = NULL;
        w->done = w->found = w->arcs = w->ends = w->levels = 0;
    }
    sv->positions = 0;
}

/* the solve depth first from `start` (sv->depth_first): 0 when solved (the blocks as the
   one-pass solve leaves them), 1 when it gave up on a cycle or the memory cap (the blocks
   forgotten, no error kept), else an error */
static int sv_dfs(Sv *sv, const S *start) {
    uint64_t sparse_above = sv->sparse_above, tally_room = sv->tally_room;
    sv->sparse_above = 0;  /* no block gets bitsets while it runs */
    sv->tally_room = 0;
    sv->phase = 4;
    sv->phase_t0 = sv_now();
    for (int t = 0; t < SV_MAX_THREADS; t++) sv->work[t].done = sv->work[t].found = 0;
    int r;
    for (sv->dfs_wide = 0;; sv->dfs_wide = 1) {  /* values of a byte, unless one does not fit */
        sv->dfs_overflow = 0;
        sv->dfs_marks = (sv->dfs_wide ? 0x10000u : 0x100u) - (unsigned)sv->threads;
        r = sv_dfs_run(sv, start);
        if (r != 1 || !sv->dfs_overflow || sv->dfs_wide) break;
        sv_dfs_forget(sv);
    }
    sv->sparse_above = sparse_above;
    sv->tally_room = tally_room;
    if (r == 1 || sv_failed(sv) == RC_ERR_MEMORY) {
        sv_dfs_forget(sv);
        sv->err = 0;
        sv->msg[0] = 0;
        return 1;
    }
    if (r) return r;
    for (int k = 0; k < sv->nblocks; k++) {
        SvBlock *b = sv->blocks[k];
        if (sv_dfs_block(sv, b)) return sv->err ? sv->err : RC_ERR_MEMORY;
        sv->ndense += b->count;
        if (b->ended) {
            sv->terminal += b->count;
            if (sv->levels < 1 && b->ended != SV_DRAW)
                sv->levels = 1;
        }
    }
    sv->positions = sv->ndense;
    for (int t = 0; t < sv->threads; t++) {
        SvWork *w = &sv->work[t];
        sv->narcs += w->arcs;
        sv->terminal += w->ends;
        if ((int)w->levels > sv->levels) sv->levels = (int)w->levels;
    }
    sv->one_pass = sv->solved_depth_first = 1;
    return 0;
}

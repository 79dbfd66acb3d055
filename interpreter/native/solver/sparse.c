/* rulecraft native solver: sparse blocks. One unit of solver.c's translation unit (after
   bits.c; solver.c says what the solver does).

   A block of more than sv->sparse_above indices starts sparse: reachability keeps the
   positions it reaches there in a hash set (a slot: index + 1, and the position's tally
   from bit 48) and those still to expand in a list, so the block costs memory by the
   positions found, not by its indices. Once more than one index in SV_DENSE_AT is reached,
   the set (16 to 32 bytes a position) would cost more than the bitsets of reachability (2
   bits an index): the block turns dense (sv_densify) and stays so. A block still sparse
   when reachability ends (sv_sparse_finish) keeps its reached indices as a rising list
   with a directory: a local id is then a short search, and the block's values, tallies
   and un-move frontiers go by local id. */

#define SV_SLOT_INDEX (((uint64_t)1 << 41) - 1)  /* a slot's index + 1 */
#define SV_KEY_INDEX (((uint64_t)1 << 48) - 1)   /* sv_sparse_finish: a key's index */

static inline uint64_t sv_hmix(uint64_t i) {
    uint64_t x = i * 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 29);
}

/* the slot of index `i` in `b`'s set, or the empty slot where it would go */
static inline uint64_t *sv_hslot(const SvBlock *b, uint64_t i) {
    uint64_t mask = b->hcap - 1;
    for (uint64_t s = sv_hmix(i) & mask;; s = (s + 1) & mask) {
        uint64_t x = b->hs[s];
        if (!x || (x & SV_SLOT_INDEX) == i + 1) return &b->hs[s];
    }
}

/* the set made twice as large; 0 or an error */
static int sv_hgrow(Sv *sv, SvBlock *b) {
    uint64_t *old = b->hs, cap = b->hcap, ncap = cap ? 2 * cap : 256;
    uint64_t *hs = sv_alloc(sv, (size_t)ncap * 8);
    if (!hs) return RC_ERR_MEMORY;
    b->hs = hs;
    b->hcap = ncap;
    for (uint64_t s = 0; s < cap; s++)
        if (old[s]) *sv_hslot(b, (old[s] & SV_SLOT_INDEX) - 1) = old[s];
    sv_free(sv, old, (size_t)cap * 8);
    return 0;
}

/* `x` appended to a list of `*n` entries in room for `*cap`; 0 or an error */
static int sv_push(Sv *sv, uint64_t **list, uint64_t *n, uint64_t *cap, uint64_t x) {
    if (*n == *cap) {
        uint64_t ncap = *cap ? 2 * *cap : 64;
        uint64_t *p = sv_alloc(sv, (size_t)ncap * 8);
        if (!p) return RC_ERR_MEMORY;
        if (*n) memcpy(p, *list, (size_t)*n * 8);
        sv_free(sv, *list, (size_t)*cap * 8);
        *list = p;
        *cap = ncap;
    }
    (*list)[(*n)++] = x;
    return 0;
}

static void sv_let_go(Sv *sv, uint64_t **list, uint64_t *n, uint64_t *cap) {
    sv_free(sv, *list, (size_t)*cap * 8);
    *list = NULL;
    *n = *cap = 0;
}

/* room for `bytes` of tallies taken from sv->tally_room, or the block's tallies let go
   (the arcs they counted are counted again); whether there was room */
static int sv_tally_room(Sv *sv, SvBlock *b, uint64_t bytes) {
    pthread_mutex_lock(&sv->lock);
    int room = sv->tally_used + bytes <= sv->tally_room;
    if (room) sv->tally_used += bytes;
    pthread_mutex_unlock(&sv->lock);
    if (!room) {
        __atomic_add_fetch(&sv->untallied, b->tarcs, __ATOMIC_RELAXED);
        b->tallying = 0;
    }
    return room;
}

/* sparse block `b` turned dense (under its lock): its bitsets from the set, its frontier
   from the list of positions to expand, its tallies kept if there is room; 0 or an error */
static int sv_densify(Sv *sv, SvBlock *b) {
    size_t bytes = (size_t)b->words * 8;
    uint64_t *reach = sv_block_alloc(sv, b, bytes), *cur = b->ended ? NULL : sv_block_alloc(sv, b, bytes);
    uint8_t *tally = NULL;
    if (reach && (cur || b->ended) && b->tallying && sv_tally_room(sv, b, b->size))
        tally = sv_alloc_as(sv, b->size, 0);
    if (!reach || (!cur && !b->ended) || (b->tallying && !tally)) {
        sv_block_free(sv, b, reach, bytes);
        sv_block_free(sv, b, cur, bytes);
        return RC_ERR_MEMORY;
    }
    for (uint64_t s = 0; s < b->hcap; s++) {
        uint64_t x = b->hs[s];
        if (!x) continue;
        uint64_t i = (x & SV_SLOT_INDEX) - 1;
        reach[i >> 6] |= (uint64_t)1 << (i & 63);
        if (tally) tally[i] = (uint8_t)(x >> 48);
    }
    for (uint64_t k = 0; k < b->nadd; k++) cur[b->add[k] >> 6] |= (uint64_t)1 << (b->add[k] & 63);
    if (b->nadd) __atomic_store_n(&b->cur_any, 1, __ATOMIC_RELAXED);
    sv_let_go(sv, &b->hs, &b->hn, &b->hcap);
    sv_let_go(sv, &b->add, &b->nadd, &b->capadd);
    b->tally = tally;
    __atomic_store_n(&b->cur, cur, __ATOMIC_RELEASE);
    __atomic_store_n(&b->reach, reach, __ATOMIC_RELEASE);
    __atomic_store_n(&b->sparse, 0, __ATOMIC_RELEASE);  /* after the bitsets it points to */
    return 0;
}

/* index `i` of sparse block `b` noted as reached, and as to be expanded unless the block
   ended (under its lock): 1 if new, 0 if reached before, -1 if the block is dense now
   (the caller marks the bitsets), else an error */
static int sv_sparse_put(Sv *sv, SvBlock *b, uint64_t i) {
    if (!b->sparse) return -1;
    if ((b->hn + 1) * 2 > b->hcap && sv_hgrow(sv, b)) return RC_ERR_MEMORY;
    uint64_t *slot = sv_hslot(b, i);
    if (*slot) return 0;
    *slot = i + 1;
    b->hn++;
    if (!b->ended && sv_push(sv, &b->add, &b->nadd, &b->capadd, i)) return RC_ERR_MEMORY;
    if (!sv->sparse_stays && b->hn > b->size / SV_DENSE_AT && sv_densify(sv, b)) return RC_ERR_MEMORY;
    return 1;
}

static int sv_sparse_add(Sv *sv, SvBlock *b, uint64_t i) {
    pthread_mutex_lock(&b->mu);
    int r = sv_sparse_put(sv, b, i);
    pthread_mutex_unlock(&b->mu);
    return r;
}

/* an expanded position's tally byte kept with the `m` arcs it counted, in a sparse
   block's set or a dense block's tallies; whether it was kept */
static int sv_keep_tally(SvBlock *b, uint64_t i, uint8_t code, uint64_t m) {
    if (__atomic_load_n(&b->sparse, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&b->mu);
        int sparse = b->sparse;
        if (sparse) {
            *sv_hslot(b, i) |= (uint64_t)code << 48;
            b->tarcs += m;
        }
        pthread_mutex_unlock(&b->mu);
        if (sparse) return 1;
    }
    if (!b->tally) return 0;  /* let go when the block turned dense */
    b->tally[i] = code;
    return 1;
}

/* a sparse block's set and lists let go */
static void sv_sparse_let_go(Sv *sv, SvBlock *b) {
    sv_let_go(sv, &b->hs, &b->hn, &b->hcap);
    sv_let_go(sv, &b->add, &b->nadd, &b->capadd);
    sv_let_go(sv, &b->walk, &b->nwalk, &b->capwalk);
}

/* the positions found in the last sweep (b->add) made the ones this sweep expands
   (b->walk); a block turned dense lets its last list go */
static void sv_sparse_sweep(Sv *sv, SvBlock *b) {
    if (!b->sparse) {
        sv_let_go(sv, &b->walk, &b->nwalk, &b->capwalk);
        return;
    }
    uint64_t *list = b->walk, cap = b->capwalk;
    b->walk = b->add;
    b->nwalk = b->nadd;
    b->capwalk = b->capadd;
    b->add = list;
    b->capadd = cap;
    b->nadd = 0;
}

/* the shift of a list's directory of `n` indices of `b`: about 4 a bucket */
static int sv_dir_shift(const SvBlock *b, uint64_t n) {
    int shift = 0;
    while ((((b->size - 1) >> shift) + 1) > n / 4 + 1) shift++;
    return shift;
}

/* a block still sparse when reachability ends: its reached indices sorted into b->keys
   (bucketed by index >> dshift, about 4 a bucket, then sorted in each) with the buckets'
   starts in b->dir, its tallies by local id if there is room, its set and lists let go;
   0 or an error */
static int sv_sparse_finish(Sv *sv, SvBlock *b) {
    uint64_t n = b->hn;
    int shift = sv_dir_shift(b, n);
    uint64_t ndir = ((b->size - 1) >> shift) + 1;
    uint64_t *dir = sv_alloc(sv, (size_t)(ndir + 1) * 8), *keys = sv_alloc(sv, (size_t)n * 8);
    uint8_t *tally = NULL;
    if (dir && keys && b->tallying && sv_tally_room(sv, b, n)) tally = sv_alloc_as(sv, n, 0);
    if (!dir || !keys || (b->tallying && !tally)) {
        sv_free(sv, dir, (size_t)(ndir + 1) * 8);
        sv_free(sv, keys, (size_t)n * 8);
        return RC_ERR_MEMORY;
    }
    for (uint64_t s = 0; s < b->hcap; s++)
        if (b->hs[s]) dir[(((b->hs[s] & SV_SLOT_INDEX) - 1) >> shift) + 1]++;
    for (uint64_t j = 1; j <= ndir; j++) dir[j] += dir[j - 1];
    for (uint64_t s = 0; s < b->hcap; s++) {  /* dir[j] moves on to the start of bucket j + 1 */
        uint64_t x = b->hs[s];
        if (!x) continue;
        uint64_t i = (x & SV_SLOT_INDEX) - 1;
        keys[dir[i >> shift]++] = i | (x >> 48) << 48;
    }
    for (uint64_t j = ndir; j > 0; j--) dir[j] = dir[j - 1];
    dir[0] = 0;
    for (uint64_t j = 0; j < ndir; j++)  /* by insertion: a bucket holds a few */
        for (uint64_t a = dir[j] + 1; a < dir[j + 1]; a++) {
            uint64_t x = keys[a], c = a;
            while (c > dir[j] && (keys[c - 1] & SV_KEY_INDEX) > (x & SV_KEY_INDEX)) {
                keys[c] = keys[c - 1];
                c--;
            }
            keys[c] = x;
        }
    for (uint64_t d = 0; d < n; d++) {
        if (tally) tally[d] = (uint8_t)(keys[d] >> 48);
        keys[d] &= SV_KEY_INDEX;
    }
    sv_sparse_let_go(sv, b);
    b->dir = dir;
    b->ndir = ndir;
    b->dshift = shift;
    b->keys = keys;
    b->count = n;
    b->tally = tally;
    b->sparse = 0;
    return 0;
}

/* a block's sparse parts let go */
static void sv_sparse_free(Sv *sv, SvBlock *b) {
    sv_sparse_let_go(sv, b);
    if (b->keys) {
        sv_free(sv, b->keys, (size_t)b->count * 8);
        sv_free(sv, b->dir, (size_t)(b->ndir + 1) * 8);
        b->keys = b->dir = NULL;
    }
}

/* rulecraft native solver: packed keys and canonical forms under the board's symmetries.
   One unit of solver.c's translation unit (after index.c; solver.c says what the solver
   does). */

/* ------------------------------------------------------------------ keys, symmetry */
static sv_u128 sv_mask_key(const S *s) {
    sv_u128 k = 0;
    for (int i = 0; i < RC_NC; i++)
        for (int w = 0; w < RC_W; w++)
            if (s->c[i].w[w]) k |= (sv_u128)s->c[i].w[w] << (i * RC_CELLS + 64 * w);
    return k;
}

/* codec.Codec.pack: the cell masks in the low bits, each int slot biased by its low */
static sv_u128 sv_pack(const Sv *sv, const S *s) {
    sv_u128 k = sv_mask_key(s);
    for (int j = 0; j < RC_NI; j++) {
        uint64_t v = (uint64_t)(s->v[j] - sv->low[j]);
        if (v) k |= (sv_u128)v << sv->shift[j];
    }
    return k;
}

/* -1, 0 or 1 as mask `a` is below, equal to or above `b` as a number */
static inline int sv_mcmp(M a, M b) {
    for (int w = RC_W - 1; w >= 0; w--)
        if (a.w[w] != b.w[w]) return a.w[w] < b.w[w] ? -1 : 1;
    return 0;
}

/* ------------------------------------------------------------------ the players' swap */
/* With sv->swap, a position and its image with the players exchanged (each type's pieces
   become sv->swap_type's, the cells go through the swap's permutation, the other player
   is to move, a winner becomes the other) are one; the one kept has player 0 to move.
   Player 1's positions are swapped first, then put in canonical form under the board's
   symmetries (the swap is an involution that maps them onto themselves: player_swap.py). */
/* the image of `m` through `tab`, per byte of a mask each byte value's image (the swap's
   table, and each symmetry's but where sv_canon's vector path lays them out by lanes): on
   one word, a lookup for every byte, with no branch on the data */
static inline M sv_table_image(const SvImg *tab, M m) {
    M out;
#if RC_W == 1
    uint64_t x = m.w[0], r = 0;
#pragma GCC unroll 8
    for (int j = 0; j < SV_IMG_BYTES; j++) r |= tab[j * 256 + (x >> 8 * j & 255)];
    out.w[0] = r;
#else
    out = m_zero();
    for (int w = 0; w < RC_W; w++)
        for (uint64_t x = m.w[w], j = (uint64_t)w * 8; x; x >>= 8, j++)
            if (x & 255) out = m_or(out, tab[j * 256 + (x & 255)]);
#endif
    return out;
}

/* the image of `m` under the cell permutation `to` (a byte a cell, one-word boards), a
   piece at a time, where the mask has fewer cells than the board has bytes (the few
   pieces of a type). More instructions than sv_table_image's lookups, but its tables, a
   byte of the board each, take SV_IMG_BYTES * 2 KB a symmetry, and with the swap's they
   pass the first-level cache on a board of over 32 cells; a permutation takes 64 bytes
   (3-A-Side's every-arrangement solve: 336 s of CPU against 445 s with the tables,
   PERFORMANCE.md) */
static inline int sv_few_cells(M m) {
#if RC_W == 1
    return m_pop(m) < SV_IMG_BYTES;
#else
    (void)m;
    return 0;
#endif
}

static inline M sv_few_image(const uint8_t *to, M m) {
    M out = m_zero();
    for (uint64_t x = m.w[0]; x; x &= x - 1) out.w[0] |= (uint64_t)1 << to[__builtin_ctzll(x)];
    return out;
}

/* the entry of a mask in a table of images */
static inline SvImg sv_img_of(M m) {
#if RC_W == 1
    return (SvImg)m.w[0];
#else
    return m;
#endif
}

/* a table for sv_table_image of permutation `p` of the cells (NULL: the identity) */
static void sv_fill_table(SvImg *tab, const int32_t *p) {
    for (int j = 0; j < SV_IMG_BYTES; j++)
        for (int v = 0; v < 256; v++) {
            M m = m_zero();
            for (int b = 0; b < 8; b++) {
                int c = 8 * j + b;
                if (!(v >> b & 1) || c >= RC_CELLS) continue;
                int to = p ? p[c] : c;
                m.w[to >> 6] |= (uint64_t)1 << (to & 63);
            }
            tab[j * 256 + v] = sv_img_of(m);
        }
}

#define SV_TABLE_SIZE (SV_IMG_BYTES * 256 * sizeof(SvImg))

/* the swap's image of each byte value of each byte of a mask, from its cell permutation */
static void sv_swap_tables(Sv *sv, const int32_t *p) {
    sv->stab = sv_alloc(sv, SV_TABLE_SIZE);
    if (sv->stab) sv_fill_table(sv->stab, p);
    for (int c = 0; c < RC_CELLS && RC_W == 1; c++) sv->scell[c] = (uint8_t)p[c];
}

static inline M sv_swap_mask(const Sv *sv, M m) {
    return sv_few_cells(m) ? sv_few_image(sv->scell, m) : sv_table_image(sv->stab, m);
}

/* the int slots `v` under the swap, in place: each value to its slot's image (slots
   exchanged in pairs: player_swap.swap_slots), the player to move and a winner the other.
   In place, value by value: a copy through a buffer read back whole stalls on the stores
   just made (perf put 13% of sv_canon's samples on that read, 3-A-Side with the swap). */
static inline void sv_swap_ints(const Sv *sv, int64_t *v) {
    for (int j = 0; j < RC_NI; j++) {
        int k = sv->swap_slot[j];
        if (k > j) {
            int64_t x = v[j];
            v[j] = v[k];
            v[k] = x;
        }
    }
    v[RC_P] = 1 - v[RC_P];
    if (v[RC_OUT] == 0 || v[RC_OUT] == 1) v[RC_OUT] = 1 - v[RC_OUT];
}

/* `s` with the players exchanged, whoever is to move (sv->swap set) */
static inline void sv_swap_any(const Sv *sv, S *s) {
    M c[RC_NC];
    for (int i = 0; i < RC_NC; i++) c[i] = sv_swap_mask(sv, s->c[i]);
    for (int i = 0; i < RC_NC; i++) s->c[i < RC_NT ? sv->swap_type[i] : i] = c[i];
    sv_swap_ints(sv, s->v);
}

/* `s` as the swap keeps it: its image if player 1 is to move */
static inline void sv_swap(const Sv *sv, S *s) {
    if (sv->swap && s->v[RC_P] == 1) sv_swap_any(sv, s);
}

/* sv_canon: the image of `s` under the symmetries that is least, its cell slots compared
   in the order `ord` (a slot's mask as a number). The index compares in sv->cmp: the
   previous ply's cells, then the piece types in the order they are placed (sv_shape), so
   the type that varies slowest in the index decides first; most plies leave it where it
   stands, and then a child of a position in canonical form needs no other image
   (sv_alone_memo). Packed keys (rc_solve_output) compare in sv->keycmp, the last slot first,
   as symmetry.Canonicalizer compares them. sv_canon_memo finds most in one image. */
#if RC_W == 1 && RC_CELLS <= 32 && defined(__AVX2__)
/* Boards of up to 32 cells: the images of a mask under 8 symmetries at once, a lookup of
   8 lanes a byte of the mask (sv_tables: 32 KB per 8 symmetries); the least among the
   lanes still tied is found slot by slot with no branch on the data (the per-symmetry
   loop below mispredicts which image is less about as often as not). */
#define SV_LANES 8

static void sv_canon_images(const Sv *sv, S *s, const int *ord) {
    const __m256i lane_bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    uint32_t best[RC_NC];  /* the least image so far: at first, `s` itself */
    for (int i = 0; i < RC_NC; i++) best[i] = (uint32_t)s->c[i].w[0];
    for (int g = 0; g * SV_LANES < sv->nperm; g++) {
        const uint32_t *t = sv->ptab + (size_t)g * 4 * 256 * SV_LANES;
        uint32_t m[RC_NC], live = 255;
        int cmp = 0;  /* -1: this group's least is below `best` */
        for (int j = 0; j < RC_NC; j++) {
            int i = ord[j];
            uint64_t x = s->c[i].w[0];
            __m256i v = _mm256_or_si256(
                _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(t + (x & 255) * SV_LANES)),
                                _mm256_loadu_si256((const __m256i *)(t + (256 + (x >> 8 & 255)) * SV_LANES))),
                _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(t + (512 + (x >> 16 & 255)) * SV_LANES)),
                                _mm256_loadu_si256((const __m256i *)(t + (768 + (x >> 24 & 255)) * SV_LANES))));
            __m256i dead = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)live), lane_bit),
                                              _mm256_setzero_si256());
            v = _mm256_or_si256(v, dead);  /* lanes no longer tied: never the least */
            __m256i lo = _mm256_min_epu32(v, _mm256_permute2x128_si256(v, v, 1));
            lo = _mm256_min_epu32(lo, _mm256_shuffle_epi32(lo, 0x4E));
            lo = _mm256_min_epu32(lo, _mm256_shuffle_epi32(lo, 0xB1));
            live &= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, lo)));
            m[i] = (uint32_t)_mm256_cvtsi256_si32(lo);
            if (!cmp && m[i] != best[i] && (cmp = m[i] < best[i] ? -1 : 1) > 0) break;
        }
        if (cmp < 0) memcpy(best, m, sizeof best);
    }
    for (int i = 0; i < RC_NC; i++) s->c[i].w[0] = best[i];
}

/* the image of `m` under symmetry q */
static inline M sv_image(const Sv *sv, M m, int q) {
    const uint32_t *t = sv->ptab + (size_t)(q / SV_LANES) * 4 * 256 * SV_LANES + q % SV_LANES;
    uint64_t x = m.w[0];
    M out;
    out.w[0] = (uint64_t)(t[(x & 255) * SV_LANES] | t[(256 + (x >> 8 & 255)) * SV_LANES] |
                          t[(512 + (x >> 16 & 255)) * SV_LANES] | t[(768 + (x >> 24 & 255)) * SV_LANES]);
    return out;
}

/* the tables hold 8 symmetries' images side by side: whole groups of 8 (sv_tables) */
static int sv_table_perms(const Sv *sv) {
    return sv->nperm > SV_LANES ? (sv->nperm + SV_LANES - 1) / SV_LANES * SV_LANES : SV_LANES;
}

/* symmetry q's table (sv_fill_table) put on its lanes */
static void sv_lanes_set(Sv *sv, int q, const SvImg *tab) {
    for (int j = 0; j < SV_IMG_BYTES; j++)
        for (int v = 0; v < 256; v++)
            sv->ptab[(((size_t)(q / SV_LANES) * 4 + (size_t)j) * 256 + (size_t)v) * SV_LANES +
                     (size_t)(q % SV_LANES)] = tab[j * 256 + v];
}
#else
/* the image of `m` under symmetry q (on boards of up to 32 cells, 4 tables of 32-bit
   images, which fit the first-level cache for 8 symmetries; up to 64 cells, one of 64-bit
   images a byte of the board) */
static inline M sv_image(const Sv *sv, M m, int q) {
    if (sv_few_cells(m)) return sv_few_image(sv->pcell + (size_t)q * 64, m);
    return sv_table_image(sv->ptab + (size_t)q * SV_IMG_BYTES * 256, m);
}

/* images are compared from the first slot of `ord`, and most are dropped after it */
static void sv_canon_images(const Sv *sv, S *s, const int *ord) {
    M best[RC_NC], img[RC_NC];
    for (int i = 0; i < RC_NC; i++) best[i] = s->c[i];
    for (int q = 0; q < sv->nperm; q++) {
        if (sv->identity[q]) continue;
        int j = 0, cmp = 0;
        for (; j < RC_NC; j++) {
            img[ord[j]] = sv_image(sv, s->c[ord[j]], q);
            if ((cmp = sv_mcmp(img[ord[j]], best[ord[j]])) != 0) break;
        }
        if (cmp < 0) {
            for (int k = 0; k <= j; k++) best[ord[k]] = img[ord[k]];
            for (int k = j + 1; k < RC_NC; k++) best[ord[k]] = sv_image(sv, s->c[ord[k]], q);
        }
    }
    for (int i = 0; i < RC_NC; i++) s->c[i] = best[i];
}

static int sv_table_perms(const Sv *sv) { return sv->nperm ? sv->nperm : 1; }
#endif

/* sv_canon's least image of `s` (the swap's image first where player 1 is to move) */
static void sv_canon(const Sv *sv, S *s, const int *ord) {
    sv_swap(sv, s);
    if (sv->nperm >= 2) sv_canon_images(sv, s, ord);
}

static size_t sv_tables_size(const Sv *sv) {
    return (size_t)sv_table_perms(sv) * SV_TABLE_SIZE;
}

/* each symmetry's image of each byte value of each byte of a mask (see sv_image; a table
   past the last symmetry is the identity's); the orders slots are compared in (sv_canon) */
static void sv_tables(Sv *sv) {
    sv->ptab = sv_alloc(sv, sv_tables_size(sv));
    sv->identity = sv_alloc(sv, (size_t)(sv->nperm ? sv->nperm : 1));
    sv->pcell = sv_alloc(sv, (size_t)sv_table_perms(sv) * 64);
    if (!sv->ptab || !sv->identity || !sv->pcell) return;
    for (int q = 0; q < sv_table_perms(sv); q++) {
        const int32_t *p = q < sv->nperm ? sv->perm + (size_t)q * RC_CELLS : NULL;
        if (p) {
            sv->identity[q] = 1;
            for (int c = 0; c < RC_CELLS; c++) if (p[c] != c) sv->identity[q] = 0;
        }
        for (int c = 0; c < RC_CELLS && RC_W == 1; c++)
            sv->pcell[(size_t)q * 64 + (size_t)c] = (uint8_t)(p ? p[c] : c);
#ifdef SV_LANES
        SvImg tab[SV_IMG_BYTES * 256];
        sv_fill_table(tab, p);
        sv_lanes_set(sv, q, tab);
#else
        sv_fill_table(sv->ptab + (size_t)q * SV_IMG_BYTES * 256, p);
#endif
    }
    int n = 0;
    for (int i = RC_NC - 1; i >= RC_NT; i--) sv->cmp[n++] = i;
    for (int i = 0; i < RC_NT; i++) sv->cmp[n++] = sv->order[i];
    for (int i = 0; i < RC_NC; i++) sv->keycmp[i] = RC_NC - 1 - i;
}

/* the one symmetry whose image of mask `m` is least (-2: the identity), or -1 where two
   images are least: then a symmetry other than the identity keeps the least one */
static int sv_least(const Sv *sv, M m) {
    M least = m;
    int one = -2, ties = 0;
    for (int q = 0; q < sv->nperm; q++) {
        if (sv->identity[q]) continue;
        M img = sv_image(sv, m, q);
        int c = sv_mcmp(img, least);
        if (c < 0) least = img, one = q, ties = 0;
        else if (c == 0) ties = 1;
    }
    return ties ? -1 : one;
}

#if RC_W == 1
/* sv_least of `cells`, remembered at `h` of thread `w`'s memo (sv_least_memo's miss) */
static __attribute__((noinline)) int sv_least_note(const Sv *sv, SvWork *w, M cells, size_t h) {
    int q = sv_least(sv, cells);
    w->least_of[h] = cells.w[0];
    w->least_is[h] = (uint16_t)(3 + q);
    return q;
}
#endif

/* sv_least, remembered by the cells (on one-word boards): the slot compared first takes
   few placements, which recur from position to position (sv_canon_memo, sv_alone_memo) */
static inline int sv_least_memo(const Sv *sv, SvWork *w, M cells) {
#if RC_W == 1
    uint64_t m = cells.w[0];
    size_t h = (size_t)((m * 0x9E3779B97F4A7C15ull) >> (64 - SV_LEAST_BITS));
    if (w->least_is[h] && w->least_of[h] == m) return w->least_is[h] - 3;
    return sv_least_note(sv, w, cells, h);
#else
    (void)w;
    return sv_least(sv, cells);
#endif
}

/* sv_canon in sv->cmp, where one symmetry puts the slot compared first least in one
   image (sv_least_memo), else by comparing them all; whether no symmetry but the
   identity keeps that slot of the result (sv_alone_memo) */
static __attribute__((unused)) int sv_canon_memo(const Sv *sv, SvWork *w, S *s) {
    sv_swap(sv, s);
    if (sv->nperm < 2) return 1;
    int q = sv_least_memo(sv, w, s->c[sv->cmp[0]]);
    if (q == -1) {
        sv_canon_images(sv, s, sv->cmp);
        return 0;
    }
    if (q >= 0)
        for (int i = 0; i < RC_NC; i++) s->c[i] = sv_image(sv, s->c[i], q);
    return 1;
}

/* whether `s` (in canonical form) is fixed by no symmetry but the identity in the slot
   compared first: then a child that leaves that slot as it is is in canonical form. (That
   slot is the least of its images, so only a tie keeps it: sv_least.) */
static int sv_alone_memo(const Sv *sv, SvWork *w, const S *s) {
    return sv_least_memo(sv, w, s->c[sv->cmp[0]]) != -1;
}

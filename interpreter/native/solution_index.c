/* rulecraft native back-end: a solve's index as a file (after solver.c).

   The body of a solution file of format 5 (search/solution_file.py writes its header and
   checksum): the solver's own tables, so a solve too large to sort into keys is saved as
   it stands and read back by mapping it.

       u64 blocks
       per block, in order:
           SvKey          its piece counts, int slots and previous ply's cells
           u64 words, u64 count    its bitset's words and reached positions
           u64 reach[words]        one bit an index of the block
           u16 val[count]          value | remoteness << 2 per reached position, in index
                                   order, padded to 8 bytes; none for an ended block (its
                                   outcome is in its key)

   A file of format 6 keeps the same parts apart, for random access: the directory (the
   block count, then each block's key, words and count) as it is, and each block's body
   (its reach and val) in compressed chunks (search/block_file.py). rc_solve_open_lazy
   reads the directory only; Python reads the chunks a lookup needs, and asks C where a
   position is (rc_solve_locate) and what an index is (rc_solve_unrank).

   Everything is in the machine's byte order (the header says which). Every block is
   checked against the rules of the index (ranges, shape, counts, value codes) before a
   lookup may read it.

   Exports: rc_solve_write, rc_solve_open, rc_solve_blocks, rc_solve_directory,
   rc_solve_block_bytes, rc_solve_block_body, rc_solve_open_lazy, rc_solve_block_info,
   rc_solve_tally. */

static int sv_put(FILE *f, const void *p, size_t bytes) { return fwrite(p, 1, bytes, f) == bytes ? 0 : -1; }

/* bytes of a block's values in a body: none if it ended, else padded to 8 */
static uint64_t sv_val_bytes(const SvBlock *b) {
    return b->ended ? 0 : b->count * 2 + (-(b->count * 2) & 7);
}

/* a solved block's values into `vals` (room for b->count, zero-padded to 8 bytes) */
static void sv_block_vals(Sv *sv, const SvBlock *b, uint16_t *vals) {
    uint64_t d = 0;
    SV_EACH_IN_BLOCK(b, i) {
        uint32_t r;
        uint8_t v = sv_value_at(sv, b, i, &r);
        vals[d++] = (uint16_t)(v | r << 2);
    }
    while ((d * 2) & 7) vals[d++] = 0;
}

/* words w0 to w1 of a block's bitset into `out` (a sparse block's made from its keys) */
static void sv_bits(const SvBlock *b, uint64_t w0, uint64_t w1, uint64_t *out) {
    if (!b->keys) {
        memcpy(out, b->reach + w0, (size_t)(w1 - w0) * 8);
        return;
    }
    memset(out, 0, (size_t)(w1 - w0) * 8);
    for (uint64_t d = sv_key_place(b, 64 * w0); d < b->count && b->keys[d] < 64 * w1; d++)
        out[(b->keys[d] >> 6) - w0] |= (uint64_t)1 << (b->keys[d] & 63);
}

/* a block's bitset written to `f` (a sparse block's made a megabyte at a time); 0 or -1 */
static int sv_put_bits(FILE *f, const SvBlock *b) {
    if (!b->keys) return sv_put(f, b->reach, (size_t)b->words * 8);
    enum { PART = 1 << 17 };
    uint64_t *part = malloc(PART * 8);
    int err = part ? 0 : -1;
    for (uint64_t w = 0; w < b->words && !err; w += PART) {
        uint64_t w1 = w + PART < b->words ? w + PART : b->words;
        sv_bits(b, w, w1, part);
        err = sv_put(f, part, (size_t)(w1 - w) * 8);
    }
    free(part);
    if (!part) errno = ENOMEM;
    return err;
}

/* append the body to `path` (its header written before); 0, -1 with errno set, or SV_UNREAD */
int rc_solve_write(void *h, const char *path) {
    Sv *sv = h;
    for (int k = 0; k < sv->nblocks; k++)
        if (sv_unread(sv->blocks[k])) return SV_UNREAD;
    FILE *f = fopen(path, "ab");
    if (!f) return -1;
    uint64_t nb = (uint64_t)sv->nblocks;
    int err = sv_put(f, &nb, 8);
    uint16_t *vals = NULL;
    size_t cap = 0;
    for (int k = 0; k < sv->nblocks && !err; k++) {
        SvBlock *b = sv->blocks[k];
        uint64_t head[2] = {b->words, b->count};
        err = sv_put(f, &b->key, sizeof b->key) || sv_put(f, head, 16) || sv_put_bits(f, b);
        if (err || b->ended) continue;
        if (sv_val_bytes(b) > cap) {
            free(vals);
            cap = sv_val_bytes(b);
            vals = malloc(cap);
            if (!vals) { errno = ENOMEM; err = -1; break; }
        }
        sv_block_vals(sv, b, vals);
        err = sv_put(f, vals, sv_val_bytes(b));
        sv_tier_read(sv, b);
    }
    free(vals);
    if (fclose(f)) err = -1;
    return err;
}

/* format 6's directory (u64 blocks, then each block's key, words and count) into `out`,
   if not NULL; its size in bytes */
uint64_t rc_solve_directory(void *h, uint8_t *out) {
    Sv *sv = h;
    uint64_t entry = sizeof(SvKey) + 16, nb = (uint64_t)sv->nblocks;
    if (out) {
        memcpy(out, &nb, 8);
        for (int k = 0; k < sv->nblocks; k++) {
            SvBlock *b = sv->blocks[k];
            uint64_t head[2] = {b->words, b->count};
            memcpy(out + 8 + k * entry, &b->key, sizeof b->key);
            memcpy(out + 8 + k * entry + sizeof b->key, head, 16);
        }
    }
    return 8 + nb * entry;
}

/* the blocks of the index */
int rc_solve_blocks(void *h) { return ((Sv *)h)->nblocks; }

/* the bytes of block k's body: its reach, then its values */
uint64_t rc_solve_block_bytes(void *h, int k) {
    SvBlock *b = ((Sv *)h)->blocks[k];
    return b->words * 8 + sv_val_bytes(b);
}

/* block k's body into `out` (rc_solve_block_bytes of room); 0, or SV_UNREAD */
int rc_solve_block_body(void *h, int k, uint8_t *out) {
    Sv *sv = h;
    SvBlock *b = sv->blocks[k];
    if (sv_unread(b)) return SV_UNREAD;
    sv_bits(b, 0, b->words, (uint64_t *)out);
    if (!b->ended) sv_block_vals(sv, b, (uint16_t *)(out + b->words * 8));
    sv_tier_read(sv, b);
    return 0;
}

/* block k of a directory at p + *at (*at moved past its entry): its key checked and
   entered in the index, `*count` its reached positions as the file gives them; NULL on
   an error */
static SvBlock *sv_enter_block(Sv *sv, const uint8_t *p, uint64_t size, uint64_t *at, uint64_t k,
                               uint64_t *count) {
    SvKey key;
    uint64_t head[2];
    if (size - *at < sizeof key + 16) {
        sv_fail(sv, SV_ERR_INDEX, "block %llu is cut short", (unsigned long long)k);
        return NULL;
    }
    memcpy(&key, p + *at, sizeof key);
    memcpy(head, p + *at + sizeof key, 16);
    *at += sizeof key + 16;
    uint64_t h = sv_hash(&key);
    if (sv_find(sv, &key, h)) {
        sv_fail(sv, SV_ERR_INDEX, "block %llu is there twice", (unsigned long long)k);
        return NULL;
    }
    SvBlock *b = sv_alloc(sv, sizeof *b);
    if (!b) return NULL;
    b->key = key;
    b->hash = h;
    pthread_mutex_init(&b->mu, NULL);
    if (sv_check_range(sv, &key) || sv_shape(sv, b)) { sv_free(sv, b, sizeof *b); return NULL; }
    b->ended = sv_key_end(&key);
    if (head[0] != b->words || head[1] > b->size) {
        sv_fail(sv, SV_ERR_INDEX, "block %llu does not have the shape its key gives it",
                (unsigned long long)k);
        sv_free(sv, b, sizeof *b);
        return NULL;
    }
    b->id = sv->nblocks;
    sv->blocks[sv->nblocks++] = b;
    uint64_t i = h & (sv->tcap - 1);
    while (sv->table[i]) i = (i + 1) & (sv->tcap - 1);
    sv->table[i] = b;
    *count = head[1];
    return b;
}

/* block k's body (`bytes` of it at `body`, which must stay) checked and read into `b`
   (b->count: the positions its entry gives); 0 or an error */
static int sv_read_body(Sv *sv, SvBlock *b, const uint8_t *body, uint64_t bytes) {
    uint64_t count = b->count, k = (uint64_t)b->id;
    if (bytes / 8 < b->words || bytes - b->words * 8 != (b->ended ? 0 : count * 2 + (-(count * 2) & 7))) {
        sv_fail(sv, SV_ERR_INDEX, "block %llu does not have the shape its key gives it",
                (unsigned long long)k);
        return sv->err;
    }
    b->reach = (uint64_t *)body;
    if (sv_prefix(sv, b)) return sv->err;
    uint64_t tail = b->size & 63 ? b->reach[b->words - 1] >> (b->size & 63) : 0;
    if (b->count != count || tail) {
        sv_fail(sv, SV_ERR_INDEX, "block %llu's bits do not match its count", (unsigned long long)k);
        return sv->err;
    }
    if (b->ended) return 0;
    b->val = (uint16_t *)(body + b->words * 8);
    for (uint64_t d = 0; d < b->count; d++)
        if ((b->val[d] & 3) == 0) {
            sv_fail(sv, SV_ERR_INDEX, "block %llu holds a value code of 0", (unsigned long long)k);
            return sv->err;
        }
    return 0;
}

/* the block table for a directory of `nb` blocks; 0 or an error */
static int sv_blocks_for(Sv *sv, uint64_t nb) {
    if (nb > sv->tcap / 2) {
        sv_fail(sv, SV_ERR_INDEX, "%llu blocks, more than an index holds", (unsigned long long)nb);
        return sv->err;
    }
    sv->blocks = calloc((size_t)nb + 1, sizeof *sv->blocks);
    if (!sv->blocks) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return sv->err; }
    sv->capblocks = (int)nb + 1;
    return 0;
}

/* the blocks of a mapped body, checked; 0 or an error (rc_solve_error says what) */
static int sv_map_blocks(Sv *sv, const uint8_t *p, uint64_t size) {
    uint64_t at = 8, nb;
    if (size < 8) { sv_fail(sv, SV_ERR_INDEX, "no block count"); return sv->err; }
    memcpy(&nb, p, 8);
    if (sv_blocks_for(sv, nb)) return sv->err;
    for (uint64_t k = 0; k < nb && !sv_failed(sv); k++) {
        uint64_t count;
        SvBlock *b = sv_enter_block(sv, p, size, &at, k, &count);
        if (!b) break;
        uint64_t bytes = b->words * 8 + (b->ended ? 0 : count * 2 + (-(count * 2) & 7));
        if ((size - at) / 8 < b->words || size - at < bytes) {
            sv_fail(sv, SV_ERR_INDEX, "block %llu does not have the shape its key gives it",
                    (unsigned long long)k);
            break;
        }
        b->count = count;
        if (sv_read_body(sv, b, p + at, bytes)) break;
        at += bytes;
        sv->ndense += b->count;
    }
    if (!sv_failed(sv) && at != size)
        sv_fail(sv, SV_ERR_INDEX, "%llu bytes after the last block", (unsigned long long)(size - at));
    return sv->err;
}

/* a solver (as rc_solve_new makes it) answering from the body of a solution file at
   `offset` (8-byte aligned) of `path`, `size` bytes long; NULL when out of memory, else
   check rc_solve_error (empty: sound) */
void *rc_solve_open(const struct rc_solve_config *cfg, const int32_t *perm, const uint64_t *place,
                    const uint64_t *cells, const char *path, uint64_t offset, uint64_t size) {
    Sv *sv = rc_solve_new(cfg, perm, place, cells);
    if (!sv || sv_failed(sv)) return sv;
    sv->one_pass = 1;
    int fd = open(path, O_RDONLY);
    void *map = MAP_FAILED;
    if (fd >= 0) {
        map = mmap(NULL, (size_t)(offset + size), PROT_READ, MAP_SHARED, fd, 0);
        close(fd);
    }
    if (map == MAP_FAILED) {
        sv_fail(sv, SV_ERR_INDEX, "cannot be mapped (%s)", strerror(errno));
        return sv;
    }
    sv->map = map;
    sv->map_bytes = (size_t)(offset + size);
    sv_map_blocks(sv, (const uint8_t *)map + offset, size);
    return sv;
}

/* a solver holding format 6's directory (`size` bytes at `dir`, copied): its blocks'
   keys and shapes, not their bitsets and values, which Python reads (block_file.py);
   NULL when out of memory, else check rc_solve_error (empty: sound) */
void *rc_solve_open_lazy(const struct rc_solve_config *cfg, const int32_t *perm, const uint64_t *place,
                         const uint64_t *cells, const uint8_t *dir, uint64_t size) {
    Sv *sv = rc_solve_new(cfg, perm, place, cells);
    if (!sv || sv_failed(sv)) return sv;
    sv->one_pass = 1;
    uint64_t at = 8, nb;
    if (size < 8) { sv_fail(sv, SV_ERR_INDEX, "no block count"); return sv; }
    memcpy(&nb, dir, 8);
    if (sv_blocks_for(sv, nb)) return sv;
    for (uint64_t k = 0; k < nb && !sv_failed(sv); k++) {
        uint64_t count;
        SvBlock *b = sv_enter_block(sv, dir, size, &at, k, &count);
        if (!b) break;
        b->count = count;
        sv->ndense += count;
    }
    if (!sv_failed(sv) && at != size)
        sv_fail(sv, SV_ERR_INDEX, "%llu bytes after the last block", (unsigned long long)(size - at));
    return sv;
}

/* block k's shape: its bitset's words, reached positions, bytes of values (0 for an
   ended block), the value its positions have if it is an ended block (else 0), and its
   size (indices) */
void rc_solve_block_info(void *h, int k, uint64_t *out) {
    SvBlock *b = ((Sv *)h)->blocks[k];
    out[0] = b->words;
    out[1] = b->count;
    out[2] = sv_val_bytes(b);
    out[3] = (uint64_t)b->ended;
    out[4] = b->size;
}

/* the value codes among n values: out[0..2] win, lose, draw, out[3] any other (0) */
void rc_solve_tally(const uint16_t *val, uint64_t n, uint64_t *out) {
    uint64_t c[4] = {0, 0, 0, 0};
    for (uint64_t d = 0; d < n; d++) c[val[d] & 3]++;
    out[0] = c[1], out[1] = c[2], out[2] = c[3], out[3] = c[0];
}

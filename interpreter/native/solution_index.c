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

   Everything is in the machine's byte order (the header says which). rc_solve_open checks
   every block against the rules of the index (ranges, shape, counts, value codes) before a
   lookup may read it.

   Exports: rc_solve_write, rc_solve_open. */

static int sv_put(FILE *f, const void *p, size_t bytes) { return fwrite(p, 1, bytes, f) == bytes ? 0 : -1; }

/* append the body to `path` (its header written before); 0, or -1 with errno set */
int rc_solve_write(void *h, const char *path) {
    Sv *sv = h;
    FILE *f = fopen(path, "ab");
    if (!f) return -1;
    uint64_t nb = (uint64_t)sv->nblocks, zero = 0;
    int err = sv_put(f, &nb, 8);
    uint16_t *vals = NULL;
    size_t cap = 0;
    for (int k = 0; k < sv->nblocks && !err; k++) {
        SvBlock *b = sv->blocks[k];
        uint64_t head[2] = {b->words, b->count};
        err = sv_put(f, &b->key, sizeof b->key) || sv_put(f, head, 16) ||
              sv_put(f, b->reach, (size_t)b->words * 8);
        if (err || b->ended) continue;
        if (b->count > cap) {
            free(vals);
            cap = b->count;
            vals = malloc(cap * 2);
            if (!vals) { errno = ENOMEM; err = -1; break; }
        }
        uint64_t d = 0;
        SV_EACH_BIT(b->reach, 0, b->words, i) {
            uint32_t r;
            uint8_t v = sv_value_at(sv, b, i, &r);
            vals[d++] = (uint16_t)(v | r << 2);
        }
        err = sv_put(f, vals, (size_t)b->count * 2) ||
              sv_put(f, &zero, (size_t)(-(b->count * 2) & 7));
    }
    free(vals);
    if (fclose(f)) err = -1;
    return err;
}

/* the blocks of a mapped body, checked; 0 or an error (rc_solve_error says what) */
static int sv_map_blocks(Sv *sv, const uint8_t *p, uint64_t size) {
    uint64_t at = 8, nb;
    if (size < 8) { sv_fail(sv, SV_ERR_INDEX, "no block count"); return sv->err; }
    memcpy(&nb, p, 8);
    if (nb > sv->tcap / 2) { sv_fail(sv, SV_ERR_INDEX, "%llu blocks, more than an index holds",
                                     (unsigned long long)nb); return sv->err; }
    sv->blocks = calloc((size_t)nb + 1, sizeof *sv->blocks);
    if (!sv->blocks) { sv_fail(sv, RC_ERR_MEMORY, "out of memory"); return sv->err; }
    sv->capblocks = (int)nb + 1;
    for (uint64_t k = 0; k < nb && !sv_failed(sv); k++) {
        SvKey key;
        uint64_t head[2];
        if (size - at < sizeof key + 16) { sv_fail(sv, SV_ERR_INDEX, "block %llu is cut short",
                                                   (unsigned long long)k); break; }
        memcpy(&key, p + at, sizeof key);
        memcpy(head, p + at + sizeof key, 16);
        at += sizeof key + 16;
        uint64_t h = sv_hash(&key);
        if (sv_find(sv, &key, h)) { sv_fail(sv, SV_ERR_INDEX, "block %llu is there twice",
                                            (unsigned long long)k); break; }
        SvBlock *b = sv_alloc(sv, sizeof *b);
        if (!b) break;
        b->key = key;
        b->hash = h;
        if (sv_check_range(sv, &key) || sv_shape(sv, b)) { sv_free(sv, b, sizeof *b); break; }
        uint64_t vbytes = head[1] * 2 + (-(head[1] * 2) & 7);
        b->ended = key.v[RC_OUT] >= 0;
        if (head[0] != b->words || head[1] > b->size || (size - at) / 8 < b->words ||
            (!b->ended && size - at - b->words * 8 < vbytes)) {
            sv_fail(sv, SV_ERR_INDEX, "block %llu does not have the shape its key gives it",
                    (unsigned long long)k);
            sv_free(sv, b, sizeof *b);
            break;
        }
        b->reach = (uint64_t *)(p + at);
        at += b->words * 8;
        b->id = sv->nblocks;
        sv->blocks[sv->nblocks++] = b;
        uint64_t i = h & (sv->tcap - 1);
        while (sv->table[i]) i = (i + 1) & (sv->tcap - 1);
        sv->table[i] = b;
        if (sv_prefix(sv, b)) break;
        uint64_t tail = b->size & 63 ? b->reach[b->words - 1] >> (b->size & 63) : 0;
        if (b->count != head[1] || tail) {
            sv_fail(sv, SV_ERR_INDEX, "block %llu's bits do not match its count",
                    (unsigned long long)k);
            break;
        }
        sv->ndense += b->count;
        if (b->ended) continue;
        b->val = (uint16_t *)(p + at);
        at += vbytes;
        for (uint64_t d = 0; d < b->count; d++)
            if ((b->val[d] & 3) == 0) {
                sv_fail(sv, SV_ERR_INDEX, "block %llu holds a value code of 0",
                        (unsigned long long)k);
                break;
            }
    }
    if (!sv_failed(sv) && at != size)
        sv_fail(sv, SV_ERR_INDEX, "%llu bytes after the last block", (unsigned long long)(size - at));
    return sv->err;
}

/* a solver (as rc_solve_new makes it) answering from the body of a solution file at
   `offset` (8-byte aligned) of `path`, `size` bytes long; NULL when out of memory, else
   check rc_solve_error (empty: sound) */
void *rc_solve_open(const struct rc_solve_config *cfg, const int32_t *perm, const uint64_t *place,
                    const uint64_t *full, const char *path, uint64_t offset, uint64_t size) {
    Sv *sv = rc_solve_new(cfg, perm, place, full);
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

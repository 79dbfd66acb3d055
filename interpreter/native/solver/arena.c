/* rulecraft native solver: the arena, where a solve out of core keeps the blocks' large
   arrays. One unit of solver.c's translation unit (after base.c; solver.c says what the
   solver does).

   The arena is a deleted temporary file in $TMPDIR, mapped into one reserved stretch of
   addresses as it grows. Its arrays are counted against the memory cap only while their
   block is held (tiers.c says which are); one let go is written back and its pages dropped,
   from the process and from the page cache. */

#define SV_ARENA_SPAN ((uint64_t)1 << 42)  /* addresses reserved for the tier file: 4 TiB */

static inline uint64_t sv_page_up(uint64_t n) { return (n + 4095) & ~(uint64_t)4095; }

static inline int sv_in_arena(const Sv *sv, const void *p) {
    return sv->arena && (const uint8_t *)p >= sv->arena && (const uint8_t *)p < sv->arena + sv->arena_span;
}

/* the arena opened: addresses reserved, the file made (and deleted); 0 or an error */
static int sv_arena_open(Sv *sv) {
    void *p = MAP_FAILED;
    /* the most addresses there are, down to 16 MiB (under a cap on the address space, a
       small solve still runs: one past the span stops with an error that says so) */
    for (sv->arena_span = SV_ARENA_SPAN; sv->arena_span >= ((uint64_t)1 << 24) && p == MAP_FAILED;)
        if ((p = mmap(NULL, sv->arena_span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                      -1, 0)) == MAP_FAILED)
            sv->arena_span >>= 1;
    const char *dir = getenv("TMPDIR");
    dir = dir && *dir ? dir : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/rulecraft-tiers-XXXXXX", dir);
    int fd = p == MAP_FAILED ? -1 : mkstemp(path);
    if (fd < 0) {
        if (p != MAP_FAILED) munmap(p, sv->arena_span);
        sv_fail(sv, SV_ERR_DISK, "could not make the solve's file in %s: %s (TMPDIR names "
                "where it goes)", dir, p == MAP_FAILED ? "no addresses to map it" : strerror(errno));
        return SV_ERR_DISK;
    }
    unlink(path);
    sv->arena_fd = fd;
    sv->arena = p;
    sv->arena_bytes = 0;
    pthread_mutex_init(&sv->arena_mu, NULL);
    return 0;
}

/* `bytes` of zeros in the arena for block `b`'s arrays, counted while `b` is held; NULL
   on an error */
static void *sv_arena_take(Sv *sv, SvBlock *b, uint64_t bytes) {
    uint64_t len = sv_page_up(bytes ? bytes : 1);
    if (b->held && sv_charge(sv, len)) return NULL;
    pthread_mutex_lock(&sv->arena_mu);
    uint64_t off = sv->arena_bytes;
    void *p = NULL;
    if (off + len <= sv->arena_span && ftruncate(sv->arena_fd, (off_t)(off + len)) == 0) {
        p = mmap(sv->arena + off, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, sv->arena_fd, (off_t)off);
        if (p == MAP_FAILED) p = NULL;
        else sv->arena_bytes = off + len;
    }
    if (p) b->abytes += len;
    pthread_mutex_unlock(&sv->arena_mu);
    if (!p) {
        if (b->held) __atomic_sub_fetch(&sv->used, len, __ATOMIC_RELAXED);
        sv_fail(sv, SV_ERR_DISK, "could not grow the solve's file to %llu bytes: %s (TMPDIR "
                "names where it goes)", (unsigned long long)(off + len),
                off + len > sv->arena_span ? "past the addresses reserved" : strerror(errno));
    }
    return p;
}

/* room for one of block `b`'s large arrays: in the arena out of core, else in memory */
static void *sv_block_alloc(Sv *sv, SvBlock *b, uint64_t bytes) {
    return sv->arena ? sv_arena_take(sv, b, bytes) : sv_alloc(sv, (size_t)bytes);
}

/* `bytes` at `p` in the arena: written back, and their pages dropped */
static void sv_arena_drop(Sv *sv, void *p, uint64_t bytes) {
    if (!p || !bytes) return;
    uint64_t len = sv_page_up(bytes);
    msync(p, len, MS_SYNC);  /* so that the page cache can let its pages go too */
    madvise(p, len, MADV_DONTNEED);
    posix_fadvise(sv->arena_fd, (off_t)((uint8_t *)p - sv->arena), (off_t)len, POSIX_FADV_DONTNEED);
}

/* one of `b`'s arrays let go: freed, or in the arena, its pages dropped uncounted */
static void sv_block_free(Sv *sv, SvBlock *b, void *p, uint64_t bytes) {
    if (!sv_in_arena(sv, p)) {
        sv_free(sv, p, (size_t)bytes);
        return;
    }
    uint64_t len = sv_page_up(bytes ? bytes : 1);
    madvise(p, len, MADV_DONTNEED);  /* (its room in the file stays until the solve ends) */
    b->abytes -= len;
    if (b->held) __atomic_sub_fetch(&sv->used, len, __ATOMIC_RELAXED);
}

/* the arena unmapped and its file closed (the blocks' arrays in it go with it) */
static void sv_arena_close(Sv *sv) {
    if (!sv->arena) return;
    munmap(sv->arena, sv->arena_span);
    close(sv->arena_fd);
    pthread_mutex_destroy(&sv->arena_mu);
    sv->arena = NULL;
}

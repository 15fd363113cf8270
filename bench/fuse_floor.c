/* The do-nothing FUSE floor for bench/cortexfs.py.
 *
 * A libfuse3 filesystem on the same high-level (path) API and the same options as
 * cortexfs-mount (single-threaded, allow_other, default_permissions, 1 s attribute and
 * entry timeouts, keep_cache and noflush on open, cache_readdir and keep_cache on
 * opendir, which libfuse honours from 3.16 on), serving COUNT files f0000.txt... of
 * SIZE bytes from memory with no checks at all. Whatever CortexFS costs beyond this is
 * its own; this is as fast as a filesystem on this API and libfuse can answer.
 *
 * Built by the bench: gcc -O2 fuse_floor.c $(pkg-config --cflags --libs fuse3)
 * Usage: fuse_floor MOUNTPOINT COUNT SIZE   (foreground; fusermount3 -u to stop)
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_files;
static size_t file_size;
static char *payload;

static int file_index(const char *path)
{
    int index, used = 0;
    if (sscanf(path, "/f%4d.txt%n", &index, &used) != 1 || used != 10 || path[used] != '\0')
        return -1;
    return index >= 0 && index < n_files ? index : -1;
}

static void *floor_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    (void)conn;
    cfg->attr_timeout = 1.0;
    cfg->entry_timeout = 1.0;
    cfg->negative_timeout = 0.0;
    return NULL;
}

static int floor_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    (void)fi;
    memset(st, 0, sizeof *st);
    if (strcmp(path, "/") == 0) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    if (file_index(path) < 0)
        return -ENOENT;
    st->st_mode = S_IFREG | 0644;
    st->st_nlink = 1;
    st->st_size = (off_t)file_size;
    return 0;
}

static int floor_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
                         struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    char name[32];
    (void)offset, (void)fi, (void)flags;
    if (strcmp(path, "/") != 0)
        return -ENOENT;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    for (int i = 0; i < n_files; i++) {
        snprintf(name, sizeof name, "f%04d.txt", i);
        fill(buf, name, NULL, 0, 0);
    }
    return 0;
}

static int floor_open(const char *path, struct fuse_file_info *fi)
{
    if (file_index(path) < 0)
        return -ENOENT;
    fi->keep_cache = 1;
    fi->noflush = 1;
    return 0;
}

static int floor_read(const char *path, char *buf, size_t size, off_t offset,
                      struct fuse_file_info *fi)
{
    (void)path, (void)fi;
    if ((size_t)offset >= file_size)
        return 0;
    if (size > file_size - (size_t)offset)
        size = file_size - (size_t)offset;
    memcpy(buf, payload + offset, size);
    return (int)size;
}

static int floor_opendir(const char *path, struct fuse_file_info *fi)
{
    if (strcmp(path, "/") != 0)
        return -ENOENT;
    fi->cache_readdir = 1;
    fi->keep_cache = 1; /* nothing here ever changes */
    return 0;
}

static const struct fuse_operations floor_ops = {
    .init = floor_init,
    .getattr = floor_getattr,
    .opendir = floor_opendir,
    .readdir = floor_readdir,
    .open = floor_open,
    .read = floor_read,
};

int main(int argc, char *argv[])
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s MOUNTPOINT COUNT SIZE\n", argv[0]);
        return 2;
    }
    n_files = atoi(argv[2]);
    file_size = (size_t)strtoul(argv[3], NULL, 10);
    payload = malloc(file_size ? file_size : 1);
    if (payload == NULL)
        return 1;
    memset(payload, 'x', file_size);
    char *fuse_argv[] = {argv[0], argv[1], "-f", "-s", "-o",
                         "allow_other,default_permissions,fsname=floor", NULL};
    return fuse_main(6, fuse_argv, &floor_ops, NULL);
}

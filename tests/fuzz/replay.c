/* tests/fuzz/replay.c -- feed files to a fuzz target once each (no libFuzzer): every FILE argument,
 * and every regular file of every DIR argument.  Names each input on stderr ("replay: input PATH")
 * before feeding it, so that the last one named is the one a failure belongs to.  Prints "replayed
 * N inputs" and exits 0, or aborts in the target where a contract breaks.  Plain C99 with POSIX
 * directory reading. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

static long replayed;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long size;
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        fprintf(stderr, "replay: cannot size %s\n", path);
        return 1;
    }
    buf = (uint8_t *)malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        fclose(f);
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    fprintf(stderr, "replay: input %s\n", path);
    fflush(stderr);
    LLVMFuzzerTestOneInput(buf, (size_t)size);
    free(buf);
    replayed++;
    return 0;
}

int main(int argc, char **argv)
{
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { fprintf(stderr, "replay: no such file %s\n", argv[i]); bad = 1; continue; }
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            char path[4096];
            if (!d) { fprintf(stderr, "replay: cannot open %s\n", argv[i]); bad = 1; continue; }
            while ((e = readdir(d)) != NULL) {
                struct stat fs;
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                if (stat(path, &fs) == 0 && S_ISREG(fs.st_mode)) bad |= replay_file(path);
            }
            closedir(d);
        } else bad |= replay_file(argv[i]);
    }
    printf("replayed %ld inputs\n", replayed);
    return bad || replayed == 0;
}

/* tests/nvrtc/nvrtc_compile.c -- compile CUDA source text with NVRTC, the run-time compiler that
 * CuPy's RawModule and similar tools use (no host headers, no host code).
 *
 *   nvrtc_compile [-o OPTION]... TEXT
 *
 * TEXT is the source (e.g. "#include <ssam/conv.cuh>\nSSAM_CONV2D_DEFINE(g, float, 5, 5, 4, 128)\n");
 * each -o OPTION is passed to nvrtcCompileProgram (e.g. -o -Iinclude -o --std=c++17 -o -arch=compute_90).
 * Exit status 0 when it compiles without a warning, 1 otherwise (the log is printed), 2 on bad use. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *opts[64];
    int nopt = 0, i;
    const char *text = NULL;
    nvrtcProgram prog;
    nvrtcResult rc;
    size_t n = 0;
    char *log;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc && nopt < 64) opts[nopt++] = argv[++i];
        else if (!text) text = argv[i];
        else {
            fprintf(stderr, "usage: nvrtc_compile [-o OPTION]... TEXT\n");
            return 2;
        }
    }
    if (!text) {
        fprintf(stderr, "usage: nvrtc_compile [-o OPTION]... TEXT\n");
        return 2;
    }
    if (nvrtcCreateProgram(&prog, text, "nvrtc_check.cu", 0, NULL, NULL) != NVRTC_SUCCESS) return 2;
    rc = nvrtcCompileProgram(prog, nopt, opts);
    if (nvrtcGetProgramLogSize(prog, &n) != NVRTC_SUCCESS) n = 0;
    log = (char *)malloc(n + 1);
    if (!log) return 2;
    log[0] = 0;
    if (n) nvrtcGetProgramLog(prog, log);
    log[n] = 0;
    nvrtcDestroyProgram(&prog);
    /* a warning counts as a failure: the log holds text only when something was reported */
    if (rc != NVRTC_SUCCESS || strlen(log) > 1) {
        printf("%s\n%s", nvrtcGetErrorString(rc), log);
        free(log);
        return 1;
    }
    free(log);
    return 0;
}

/* test_onchip_stencil -- onchip/stencil.h in plain C99: onchip_stencil_plain_why, the test every
 * engine that forms only the plain sum makes before it takes an args: NULL for ONCHIP_UPDATE_SUM with
 * no field, a sentence for every other update, every unknown one and a field in any slot. */
#include <string.h>

#include <onchip/stencil.h>

#include "check.h"

static void test_plain(void)
{
    onchip_stencil_args a;
    int u, i;
    case_begin("onchip_stencil_plain_why: NULL exactly for the plain sum with no field");
    memset(&a, 0, sizeof a);
    CHECK(onchip_stencil_plain_why(&a) == NULL, "a zeroed args: %s", onchip_stencil_plain_why(&a));
    a.field[0].pitch = 5; /* a layout without a pointer is no field */
    a.field[1].plane = 7;
    CHECK(onchip_stencil_plain_why(&a) == NULL, "pitch and plane without p: %s", onchip_stencil_plain_why(&a));
    for (u = -3; u <= 8; u++) {
        const char *w;
        memset(&a, 0, sizeof a);
        a.update = u;
        w = onchip_stencil_plain_why(&a);
        if (u == ONCHIP_UPDATE_SUM) { CHECK(w == NULL, "update %d: %s", u, w); continue; }
        CHECK(w != NULL && strstr(w, "update") != NULL, "update %d: %s", u, w ? w : "NULL");
        if (u == ONCHIP_UPDATE_LEAPFROG || u == ONCHIP_UPDATE_DAMPED)
            CHECK(w && strstr(w, "ONCHIP_UPDATE_SUM") != NULL, "update %d names the plain sum: %s", u, w ? w : "NULL");
        else
            CHECK(w && strstr(w, "not an ONCHIP_UPDATE_") != NULL, "update %d is unknown: %s", u, w ? w : "NULL");
    }
    for (i = 0; i < ONCHIP_FIELDS; i++) {
        const char *w;
        memset(&a, 0, sizeof a);
        a.field[i].p = &a;
        w = onchip_stencil_plain_why(&a);
        CHECK(w != NULL && strstr(w, "field") != NULL, "field %d: %s", i, w ? w : "NULL");
    }
    CHECK(ONCHIP_FIELD_SCALE < ONCHIP_FIELDS && ONCHIP_FIELD_DAMP < ONCHIP_FIELDS && ONCHIP_FIELD_SCALE != ONCHIP_FIELD_DAMP,
          "the roles index args.field");
    case_end();
}

int main(void)
{
    check_plan(1);
    test_plain();
    return check_exit();
}

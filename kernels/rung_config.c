/* Looking up a rung's configurations: see rung_config.h. */
#include "rung_config.h"

#include <stdio.h>

const struct rung_config *rung_config_find(const struct rung_config *c, int tile, int wpt)
{
    for (; c && c->tile >= 0; c++)
        if (c->tile == tile && c->wpt == wpt) return c;
    return NULL;
}

int rung_config_fits(const struct rung_config *c, int M, int N, int K)
{
    return !c || (!(c->for_rows && M > c->for_rows) && !(c->for_cols && N > c->for_cols) &&
                  !(c->for_depth && K > c->for_depth));
}

const char *rung_config_error(const struct rung_config *c, const char *name, int tile, int wpt)
{
    static _Thread_local char msg[256];
    int n = snprintf(msg, sizeof msg, "tile %d / WPT %d: not a configuration of %s (it has", tile,
                     wpt, name);
    for (; c && c->tile >= 0 && n > 0 && (size_t)n < sizeof msg; c++)
        n += snprintf(msg + n, sizeof msg - (size_t)n, " %d/%d", c->tile, c->wpt);
    if (n > 0 && (size_t)n < sizeof msg) snprintf(msg + n, sizeof msg - (size_t)n, ")");
    return msg;
}

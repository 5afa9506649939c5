/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the peer-stats codec's two files (peer_wire.c: the frame and offer;
 * peer_wire_state.c: the state fields of docs/wire.md §P4.1). Not an API. */
#ifndef LINERATE_PEER_WIRE_PRIV_H
#define LINERATE_PEER_WIRE_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "linerate/traffic/peer_wire.h"

/* The reason into err; returns rc. */
int lr_pw_fail(char err[LR_PROTO_ERR_MAX], int rc, const char *fmt, ...) LR_PRINTF(3, 4);
/* A key of o: 1 found, 0 absent, -EINVAL wrong type or out of [lo, hi] (err set). */
int lr_pw_get_i64(json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *v,
		  char err[LR_PROTO_ERR_MAX]);
int lr_pw_get_int(json_t *o, const char *key, int64_t lo, int64_t hi, int *v,
		  char err[LR_PROTO_ERR_MAX]);
/* A JSON number j in [lo, hi] (what names it in err). */
int lr_pw_get_dbl(json_t *j, const char *what, double lo, double hi, double *v,
		  char err[LR_PROTO_ERR_MAX]);
/* key: v into o when known (>= 0); an unknown value stays absent. */
int lr_pw_set_known(json_t *o, const char *key, int64_t v);

/* peer_wire_state.c */
int lr_pw_enc_state(json_t *o, const struct lr_peer_iface *i, const struct lr_peer_frame *f);
json_t *lr_pw_enc_tuning(const struct lr_peer_tuning *t);
bool lr_pw_state_fits(const struct lr_peer_frame *f);
int lr_pw_dec_state(json_t *j, struct lr_peer_iface *i, struct lr_peer_frame *f,
		    char err[LR_PROTO_ERR_MAX]);
int lr_pw_dec_tuning(json_t *o, struct lr_peer_tuning *t, char err[LR_PROTO_ERR_MAX]);
int lr_pw_count_array(json_t *ifs, const char *key, size_t each, size_t all, size_t *total,
		      char err[LR_PROTO_ERR_MAX]);

#endif

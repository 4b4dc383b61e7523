// Events a golden model reports for its last posedge, each declared once
// where it is defined (the way gem5's ADD_STAT names a statistic): a block's
// EVENTS(X) list of X(name, meaning) entries declares the bool fields of its
// events struct, and the co-simulation's coverage counts each under its name
// (verif/cosim_util.h, EventCounter).
#pragma once

#define TXGEN_EVENT_FIELD(name, meaning) bool name = false;

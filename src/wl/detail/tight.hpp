#pragma once
// Private entry points of the tight-bound tests: the WL-type test exactly as powerful as each BREC
// model's design. compare_pair dispatches to them; each lives in its own source file.

#include "brec/graph/graph.hpp"
#include "brec/wl/wl.hpp"

namespace brec::detail {

/// The subgraph WL family and LFWL(2) / SLFWL(2) (subgraph_wl.cpp).
WlResult run_swl(const Graph& g, const Graph& h, const WlOptions& opt);
/// NGNN-WL and DE+NGNN-WL (nested_wl.cpp).
WlResult run_ngnn_wl(const Graph& g, const Graph& h, const WlOptions& opt);
/// I²-WL (nested_wl.cpp).
WlResult run_i2_wl(const Graph& g, const Graph& h, const WlOptions& opt);
/// 1-WL over the one-node-deleted subgraphs (nested_wl.cpp).
WlResult run_drop_wl(const Graph& g, const Graph& h, const WlOptions& opt);
/// 1-WL with edge-orbit counts on arcs (pattern_wl.cpp).
WlResult run_gsn_edge_wl(const Graph& g, const Graph& h, const WlOptions& opt);
/// KP-WL (pattern_wl.cpp).
WlResult run_kp_wl(const Graph& g, const Graph& h, const WlOptions& opt);
/// δ-2-LWL and δ-2-LWL+ (local_wl.cpp).
WlResult run_local_2wl(const Graph& g, const Graph& h, const WlOptions& opt);
/// (k, c)(≤)-SetWL (set_wl.cpp).
WlResult run_set_wl(const Graph& g, const Graph& h, const WlOptions& opt);

}  // namespace brec::detail

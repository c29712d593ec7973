#include "detail/tight.hpp"

#include "brec/core/error.hpp"

namespace brec::detail {

WlResult run_gsn_edge_wl(const Graph&, const Graph&, const WlOptions& opt) {
    throw Unsupported("WL method '" + opt.method.name() + "' is not implemented yet");
}

WlResult run_kp_wl(const Graph&, const Graph&, const WlOptions& opt) {
    throw Unsupported("WL method '" + opt.method.name() + "' is not implemented yet");
}

}  // namespace brec::detail

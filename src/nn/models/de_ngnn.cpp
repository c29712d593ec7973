// DE+NGNN: the nested GNN of ngnn.cpp with distance encoding: every copy's input is the one-hot
// distance to its subgraph's root (0..r, r + 1 columns), which the first GIN layer's MLP maps to
// the hidden width. As the BREC study runs it (NestedGNN/test_BREC.py with node_label "hop", h 8,
// width 128): the 8-hop induced ego-net of every node, 6 GIN layers, the readout of NGNN.
//
// @inproceedings{zhang2021nested, title={Nested Graph Neural Networks}, author={Zhang, Muhan and
//   Li, Pan}, booktitle={NeurIPS}, year={2021}}
// @inproceedings{li2020distance, title={Distance Encoding: Design Provably More Powerful Neural
//   Networks for Graph Representation Learning}, author={Li, Pan and Wang, Yinglong and Wang, Hongwei
//   and Leskovec, Jure}, booktitle={NeurIPS}, year={2020}}

#include "nn/models/builtin.hpp"
#include "nn/models/shared.hpp"

namespace brec::models {

ModelEntry de_ngnn_model() {
    ModelSpec s;
    s.name = "de_ngnn";
    s.family = "nested GNN with one-hot distance-to-root input (distance encoding)";
    s.citation = "Zhang & Li, NeurIPS 2021; Li et al., NeurIPS 2020";
    s.bound = kNodeSubgraphBound;
    s.bound_note = kNodeSubgraphBoundNote;
    s.tight_bound = "de-ngnn:8";
    s.tight_note = "DE+NGNN-WL: NGNN-WL on 8-hop induced balls with the distance to the root as initial colour";
    s.defaults = Hyper()
                     .with_radius(8)
                     .with_layers(6)
                     .with_hidden(128)
                     .with_lr(1e-4)
                     .with_weight_decay(1e-5)
                     .with_batch(32)
                     .with_epochs(30)
                     .with_loss_threshold(0.01);
    s.paper = {60, 50, 100, 21};
    return {s, [](const ModelConfig& c, ModelRandom& r) { return make_nested_gin(c, r, true); }};
}

}  // namespace brec::models

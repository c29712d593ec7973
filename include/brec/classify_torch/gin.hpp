#pragma once
// The GIN graph classifier of the isomorphism-bias experiments (LibTorch), and `classify` runs with
// it: the classify module's cross-validation, Y_iso / Y_new accounting, peering, clean dataset and
// resumable records, with a GIN trained afresh on every fold.
//
// Architecture and training follow the GIN code that Ivanov et al. ran for their paper: L GIN
// layers h' = ReLU(BN(MLP(h + Σ_{u ∈ N(v)} h_u))) (ε = 0, MLP = Linear-BN-ReLU-Linear, PyTorch's
// default initialisation), and a class score Σ_{l=0..L} Dropout(Linear_l(Σ_v h_v^(l))) over the
// input and every layer, log-softmax and the negative log-likelihood. Node features are one-hot
// node labels (one column per distinct label of the dataset; a multi-column label row is one
// label) or, for unlabelled graphs, one-hot degrees 0..max degree of the dataset. Adam (lr 0.01,
// halved every 50 epochs), shuffled batches of 32, 350 epochs; 20 % of the training fold (a random
// subset) is held out and the model of the first epoch from epoch 50 on with the best validation
// accuracy predicts the test graphs.
//
// @inproceedings{xu2019powerful, title={How Powerful are Graph Neural Networks?},
//   author={Xu, Keyulu and Hu, Weihua and Leskovec, Jure and Jegelka, Stefanie}, booktitle={ICLR}, year={2019}}
// @article{ivanov2019understanding, title={Understanding Isomorphism Bias in Graph Data Sets},
//   author={Ivanov, Sergei and Sviridov, Sergei and Burnaev, Evgeny},
//   journal={arXiv preprint arXiv:1910.12091}, year={2019}}

#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include "brec/classify/classify.hpp"
#include "brec/nn/batch.hpp"
#include "brec/nn/layers.hpp"

namespace brec {

/// How nodes become input features: one-hot node labels or one-hot degrees.
struct NodeFeatureEncoding {
    bool by_label = false;      ///< true when the dataset has node labels
    std::vector<Label> labels;  ///< the distinct node labels, sorted (column k = labels[k])
    VertexId max_degree = 0;    ///< degree columns 0..max_degree when !by_label
    std::int64_t width() const;
    /// The column of every node of `g`; InvalidArgument for a label or degree outside the encoding.
    std::vector<std::int64_t> columns(const Graph& g) const;
};
/// The encoding of a dataset: by label when any graph carries node labels, else by degree.
NodeFeatureEncoding node_feature_encoding(const std::vector<Graph>& graphs);

/// Graphs as one disjoint union with their one-hot input features.
struct GinBatch {
    nn::SparseBatch graph;
    torch::Tensor x;  ///< [nodes, width] float
};
/// The batch of graphs[i] for i in `which` (in that order); `columns[i]` are graph i's feature columns.
GinBatch make_gin_batch(const std::vector<Graph>& graphs, const std::vector<std::vector<std::int64_t>>& columns,
                        std::int64_t width, const std::vector<std::size_t>& which, torch::Device device);

/// The GIN classifier network (parameters drawn from the generator passed in).
struct GinClassifierNetImpl : torch::nn::Module {
    GinClassifierNetImpl(std::int64_t in, std::int64_t classes, const GinClassifierOptions& opt,
                         torch::Generator& init);
    /// Log-probabilities [graphs, classes]. In training mode dropout draws from `dropout_gen`.
    torch::Tensor forward(const GinBatch& b, torch::Generator* dropout_gen = nullptr);
    /// The sum-pooled node states of the input and every layer, concatenated: [graphs, in + L·hidden].
    torch::Tensor graph_embedding(const GinBatch& b);

    double dropout = 0.5;
    std::vector<nn::BnMlp> mlps;
    std::vector<torch::nn::BatchNorm1d> norms;
    std::vector<nn::Linear> heads;  ///< one per hidden state: the input and each layer
};
TORCH_MODULE(GinClassifierNet);

/// One fold's training.
struct GinFoldResult {
    std::vector<std::int64_t> predictions;  ///< class index per test graph
    int epoch = 0;                          ///< the chosen epoch (1-based)
    double validation_accuracy = 0;         ///< at that epoch
    std::vector<double> losses;             ///< mean training loss of every epoch
    std::size_t train = 0, validation = 0;  ///< graphs used to fit and to choose the epoch
};

/// Trains a fresh GIN on fold.train (less the validation share) and predicts fold.test.
/// `classes[i]` is graph i's class in 0..num_classes-1. Every random draw (validation subset,
/// batch order, weights, dropout) comes from `stream`. Throws InvalidArgument for bad options or a
/// training fold too small to hold out a validation set; Cancelled when `ctx` is cancelled.
GinFoldResult train_gin_fold(const std::vector<Graph>& graphs, const std::vector<std::int64_t>& classes,
                             std::int64_t num_classes, const NodeFeatureEncoding& encoding, const Fold& fold,
                             const GinClassifierOptions& opt, std::uint64_t stream, RunContext* ctx = nullptr);

/// The GIN as a classify model ("gin"); validates `opt` (InvalidArgument naming the flag).
ClassifierMaker gin_classifier(const GinClassifierOptions& opt);

/// run_classify for every model: gin with gin_classifier(opt.gin), wl and vh with their kernels.
ClassifyResult run_classify_torch(const ClassifyOptions& opt, RunContext& ctx);

}  // namespace brec

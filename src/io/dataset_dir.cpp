#include "brec/io/dataset_dir.hpp"

#include "brec/core/error.hpp"

namespace brec {

DatasetDirWriter::DatasetDirWriter(std::string dir)
    : writer_(std::move(dir), AtomicDirOptions().set_create_now(true).set_undo_partial_merge(true)) {}

void DatasetDirWriter::commit(const std::vector<GraphPairRecord>& pairs, const nlohmann::json& meta,
                              const std::string& comment) {
    for (const auto& p : pairs)
        if (p.category.empty() || p.category.find_first_of("\t\r\n") != std::string::npos)
            throw InvalidArgument("pair " + std::to_string(p.id) + " has category '" + p.category +
                                  "', which a pair file cannot hold (empty, or a tab or line break)");
    // pairs.tsv is moved into place first; if meta.json then fails, pairs.tsv is removed again
    // (never one file without the other).
    writer_.write("pairs.tsv", format_pair_file(pairs, comment));
    writer_.write("meta.json", meta.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    writer_.commit();
}

}  // namespace brec

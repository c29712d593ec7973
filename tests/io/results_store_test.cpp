#include "brec/io/results_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "brec/core/error.hpp"
#include "brec/io/files.hpp"
#include "common/test_util.hpp"

namespace brec {
namespace {

using namespace brec::testing;

std::string temp_file(const std::string& name) { return fresh_temp_file("store", name); }

void write_bytes(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

/// Records of the settings in their "s" field; this run's settings are "a".
const ResultsSettings kSettingsA("a", [](const nlohmann::json& j, std::int64_t) { return j.value("s", "?"); });

std::vector<std::int64_t> ids_of(const std::string& path) {
    std::vector<std::int64_t> ids;
    for (const auto& j : read_results(path)) ids.push_back(j.at("id").get<std::int64_t>());
    return ids;
}

TEST(ScanResults, PassesRecordsWithTheirLinesAndSkipsBlankOnes) {
    std::vector<std::pair<std::int64_t, int>> seen;
    const std::string text = "{\"id\":1}\n\n  \n{\"id\":2}\r\n{\"id\":3}";
    const ResultsScan scan = scan_results(
        text, "f.jsonl", [&](nlohmann::json&& j, std::int64_t line) { seen.emplace_back(line, j["id"].get<int>()); });
    EXPECT_EQ(seen, (std::vector<std::pair<std::int64_t, int>>{{1, 1}, {4, 2}, {5, 3}}));
    EXPECT_EQ(scan.records, 3u);
    EXPECT_EQ(scan.torn_line, 0);
    EXPECT_TRUE(scan.unterminated);
    EXPECT_EQ(scan.whole_bytes, text.size());
}

TEST(ScanResults, OnlyAnUnterminatedLastLineIsTorn) {
    const std::string whole = "{\"id\":1}\n{\"id\":2}\n";
    std::size_t n = 0;
    const ResultsScan torn = scan_results(whole + "{\"id\":3,\"x", "f", [&](nlohmann::json&&, std::int64_t) { ++n; });
    EXPECT_EQ(n, 2u);
    EXPECT_EQ(torn.torn_line, 3);
    EXPECT_EQ(torn.whole_bytes, whole.size());
    EXPECT_FALSE(torn.unterminated);
    // A broken line that ends with its newline is no torn write: it is an error, as is any broken
    // line before the last, and a line holding JSON that is not an object.
    const std::vector<std::pair<std::string, std::int64_t>> broken = {
        {whole + "{\"id\":3,\"x\n", 3}, {"{\"id\":1}\nnot json\n{\"id\":2}\n", 2}, {"{\"id\":1}\n[1,2]\n", 2}};
    for (const auto& [text, line] : broken) {
        try {
            scan_results(text, "f.jsonl", [](nlohmann::json&&, std::int64_t) {});
            ADD_FAILURE() << "accepted: " << text;
        } catch (const ParseError& e) {
            EXPECT_EQ(e.source(), "f.jsonl");
            EXPECT_EQ(e.line(), line) << text;
        }
    }
}

TEST(ResultsStore, NeverOverwritesAndNeedsAFileToResume) {
    const std::string path = temp_file("a.jsonl");
    EXPECT_EQ(error_of([] { ResultsStore("", true, {}, {}); }), "resuming needs a results file");
    {
        ResultsStore store(path, false, {}, {});
        EXPECT_FALSE(file_exists(path)) << "the file is created with the first record";
        store.append(nlohmann::json{{"id", 1}, {"s", "a"}});
    }
    const std::string before = read_text_file(path);
    EXPECT_EQ(before, "{\"id\":1,\"s\":\"a\"}\n");
    try {
        ResultsStore store(path, false, {}, {});
        ADD_FAILURE() << "an existing file was overwritten";
    } catch (const ResultsFileError& e) {
        EXPECT_EQ(e.problem(), ResultsFileError::Problem::would_overwrite);
        EXPECT_EQ(e.path(), path);
        EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << "the library names no flag: " << e.what();
    }
    EXPECT_EQ(read_text_file(path), before);
    // An empty file holds no results: it may be written.
    write_bytes(path, "");
    ResultsStore store(path, false, {}, {});
    store.append(nlohmann::json{{"id", 2}});
    EXPECT_EQ(ids_of(path), std::vector<std::int64_t>{2});
    std::remove(path.c_str());
}

TEST(ResultsStore, ResumingCutsATornLineAndEndsAnUnterminatedRecord) {
    const std::string path = temp_file("b.jsonl");
    const std::string whole = "{\"id\":1,\"s\":\"a\"}\n{\"id\":2,\"s\":\"a\"}\n";
    for (const std::string& tail :
         {std::string("{\"id\":3,\"s\":\"a\"}"), std::string("{\"id\":3,\"s"), std::string("")}) {
        write_bytes(path, whole + tail);
        std::vector<std::int64_t> lines;
        {
            ResultsStore store(path, true, kSettingsA,
                               [&](nlohmann::json&&, std::int64_t line) { lines.push_back(line); });
            const bool whole_tail = tail.size() > 14;
            EXPECT_EQ(store.loaded(), whole_tail ? 3u : 2u) << tail;
            EXPECT_EQ(read_text_file(path), whole + (whole_tail ? tail : "")) << "cut at once, ended on append";
            EXPECT_EQ(lines, whole_tail ? (std::vector<std::int64_t>{1, 2, 3}) : (std::vector<std::int64_t>{1, 2}));
            store.append(nlohmann::json{{"id", 4}, {"s", "a"}});
        }
        const bool whole_tail = tail.size() > 14;
        EXPECT_EQ(read_text_file(path), whole + (whole_tail ? tail + "\n" : "") + "{\"id\":4,\"s\":\"a\"}\n") << tail;
    }
    std::remove(path.c_str());
}

TEST(ResultsStore, ABrokenLineOrARecordOfOtherSettingsLeavesTheFileAsItWas) {
    const std::string path = temp_file("c.jsonl");
    const std::string broken = "{\"id\":1,\"s\":\"a\"}\n{\"id\":2,\"s\n{\"id\":3,\"s\":\"a\"}\n{\"id\":4,\"s";
    write_bytes(path, broken);
    try {
        ResultsStore store(path, true, kSettingsA, {});
        ADD_FAILURE() << "a broken middle line was accepted";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path + ":2: ", 0), 0u) << e.what();
    }
    EXPECT_EQ(read_text_file(path), broken) << "not even the torn tail is cut";

    const std::string other = "{\"id\":1,\"s\":\"a\"}\n{\"id\":2,\"s\":\"b\"}\n{\"id\":3,\"s";
    write_bytes(path, other);
    try {
        ResultsStore store(path, true, kSettingsA, {});
        ADD_FAILURE() << "a record of other settings was accepted";
    } catch (const ResultsFileError& e) {
        EXPECT_EQ(e.problem(), ResultsFileError::Problem::other_settings);
        EXPECT_EQ(e.line(), 2);
        EXPECT_EQ(std::string(e.what()), path +
                                             ":2: a record of other settings (b; this run: a); resume with the "
                                             "same settings or use another results file");
    }
    EXPECT_EQ(read_text_file(path), other);
    // An error of the caller's reader, too, leaves the file alone.
    EXPECT_THROW(
        ResultsStore(path, true, {}, [&](nlohmann::json&&, std::int64_t line) { throw ParseError(path, line, "bad"); }),
        ParseError);
    EXPECT_EQ(read_text_file(path), other);
    std::remove(path.c_str());
}

TEST(ResultsStore, AppendsWholeLinesFromManyThreads) {
    const std::string path = temp_file("d.jsonl");
    {
        ResultsStore store(path, false, {}, {});
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&store, t] {
                for (int k = 0; k < 250; ++k)
                    store.append(nlohmann::json{{"id", t * 1000 + k}, {"pad", std::string(300, 'x')}});
            });
        for (auto& th : threads) th.join();
    }
    auto ids = ids_of(path);
    ASSERT_EQ(ids.size(), 1000u);
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end());
    std::remove(path.c_str());
}

TEST(ResultsStore, AFailedWriteIsAnIoError) {
    // /dev/full takes the open and fails every write (ENOSPC).
    if (!file_exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    ResultsStore store("/dev/full", false, {}, {});
    EXPECT_THROW(store.append(nlohmann::json{{"id", 1}, {"pad", std::string(10000, 'x')}}), IoError);
}

TEST(OrderedAppender, WritesRecordsInTaskOrderWhateverOrderTheyFinishIn) {
    const std::string path = temp_file("e.jsonl");
    {
        ResultsStore store(path, false, {}, {});
        OrderedAppender in_order(store);
        in_order.add(2, {{"id", 2}});
        in_order.add(1, {{"id", 1}});
        EXPECT_FALSE(file_exists(path)) << "task 0 has not finished: nothing may be written yet";
        in_order.add(0, {{"id", 0}});
        EXPECT_EQ(ids_of(path), (std::vector<std::int64_t>{0, 1, 2}));
        in_order.add(4, {{"id", 4}});
        EXPECT_EQ(ids_of(path).size(), 3u);
        in_order.add(3, {{"id", 3}});
    }
    EXPECT_EQ(ids_of(path), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
    std::remove(path.c_str());
}

TEST(ReadResults, ReadsAFileAndSkipsItsTornTail) {
    const std::string path = temp_file("f.jsonl");
    EXPECT_TRUE(read_results(path).empty()) << "a missing file holds no records";
    write_bytes(path, "{\"id\":7}\n{\"id\":8}\n{\"i");
    EXPECT_EQ(ids_of(path), (std::vector<std::int64_t>{7, 8}));
    EXPECT_EQ(read_text_file(path), "{\"id\":7}\n{\"id\":8}\n{\"i") << "reading changes nothing";
    std::remove(path.c_str());
}

}  // namespace
}  // namespace brec

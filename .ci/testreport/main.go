// Command testreport reads the `go test -json` files of one `make test` and prints where its
// time went: each package's wall time (one line per go test run of it) and the slowest tests,
// so a test or package that grew is seen the day it grows.
//
//	go run ./.ci/testreport [-n 20] FILE.json...
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64 // seconds, on pass, fail and skip
	Output  string
}

// The API contract's coverage, from the lines the app's TestMain prints with
// CANVASS_CONTRACT_LIST=1: its tests are split over several runs, so only all of them together
// say whether every documented operation was exercised.
const (
	documentedPrefix = "API contract documented: "
	exercisedPrefix  = "API contract exercised: "
)

var contract = struct{ documented, exercised map[string]bool }{map[string]bool{}, map[string]bool{}}

// run is one package in one file: a package may be tested twice (with and without -race).
type run struct {
	file, pkg string
	elapsed   float64
	outcome   string
	tests     int
}

type result struct {
	file, pkg, test string
	elapsed         float64
	outcome         string
}

func main() {
	n := flag.Int("n", 20, "how many of the slowest tests to list")
	flag.Parse()
	var runs []*run
	var tests []result
	for _, file := range flag.Args() {
		r, t, err := read(file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			os.Exit(1)
		}
		runs = append(runs, r...)
		tests = append(tests, t...)
	}
	print(os.Stdout, runs, tests, *n)
	printContract(os.Stdout)
}

// printContract says how many documented operations the runs together exercised, and which not.
func printContract(w io.Writer) {
	if len(contract.documented) == 0 {
		return
	}
	var missed []string
	for op := range contract.documented {
		if !contract.exercised[op] {
			missed = append(missed, op)
		}
	}
	sort.Strings(missed)
	fmt.Fprintf(w, "\nAPI contract: %d of %d documented operations exercised and validated by these runs together\n",
		len(contract.documented)-len(missed), len(contract.documented))
	for _, op := range missed {
		fmt.Fprintf(w, "  not exercised: %s\n", op)
	}
}

func read(file string) ([]*run, []result, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	name := strings.TrimSuffix(filepath.Base(file), ".json")
	byPkg := map[string]*run{}
	var order []*run
	var tests []result
	parents := map[string]bool{} // package + test of every test that has subtests
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Package == "" {
			continue // a build line, or output that is no event
		}
		r := byPkg[e.Package]
		if r == nil {
			r = &run{file: name, pkg: e.Package}
			byPkg[e.Package] = r
			order = append(order, r)
		}
		switch e.Action {
		case "output":
			line := strings.TrimSpace(e.Output)
			if op, ok := strings.CutPrefix(line, documentedPrefix); ok {
				contract.documented[op] = true
			} else if op, ok := strings.CutPrefix(line, exercisedPrefix); ok {
				contract.exercised[op] = true
			}
		case "run":
			if i := strings.LastIndex(e.Test, "/"); i > 0 {
				parents[e.Package+" "+e.Test[:i]] = true
			}
		case "pass", "fail", "skip":
			if e.Test == "" {
				r.elapsed, r.outcome = e.Elapsed, e.Action
				continue
			}
			if e.Action != "skip" {
				r.tests++
			}
			tests = append(tests, result{file: name, pkg: e.Package, test: e.Test, elapsed: e.Elapsed, outcome: e.Action})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", file, err)
	}
	// The slowest tests are the ones that do the work: a test with subtests is only their sum
	// (or, run side by side, their longest), so its subtests are listed instead.
	leaves := tests[:0]
	for _, t := range tests {
		if !parents[t.pkg+" "+t.test] {
			leaves = append(leaves, t)
		}
	}
	return order, leaves, nil
}

func print(w io.Writer, runs []*run, tests []result, n int) {
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].elapsed > runs[j].elapsed })
	fmt.Fprintln(w, "\nPackages by wall time:")
	for _, r := range runs {
		if r.outcome == "skip" && r.tests == 0 {
			continue // no test files
		}
		fmt.Fprintf(w, "  %9s  %-4s  %-48s  %4d tests  (%s)\n", seconds(r.elapsed), r.outcome, short(r.pkg), r.tests, r.file)
	}
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].elapsed > tests[j].elapsed })
	if len(tests) > n {
		tests = tests[:n]
	}
	fmt.Fprintf(w, "\nThe %d slowest tests:\n", len(tests))
	for _, t := range tests {
		fmt.Fprintf(w, "  %9s  %-4s  %s %s  (%s)\n", seconds(t.elapsed), t.outcome, short(t.pkg), t.test, t.file)
	}
}

func seconds(s float64) string {
	return (time.Duration(s * float64(time.Second))).Round(100 * time.Millisecond).String()
}

// short is a package's path within the module.
func short(pkg string) string {
	if rest, ok := strings.CutPrefix(pkg, "github.com/canvass/canvass/"); ok {
		return rest
	}
	return pkg
}

package main

import (
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/apidocs"
	"github.com/canvass/canvass/modules/testsupport/contract"
)

func TestMain(m *testing.M) {
	// Thousands of sign-ins and sign-ups: their hashing at OWASP's cost was a third of this
	// package's CPU (accounts.UseLightPasswordHashing says why that is safe).
	accounts.UseLightPasswordHashing()
	code := m.Run()
	closeSharedBrowser()
	reportContractCoverage()
	os.Exit(code)
}

// reportContractCoverage prints how many of the OpenAPI document's operations the run's API
// exchanges were checked against (docs/api.md).
func reportContractCoverage() {
	doc, err := apidocs.Load()
	if err != nil {
		return
	}
	seen := map[string]bool{}
	for _, op := range contract.Exercised() {
		seen[op] = true
	}
	var missed []string
	total := 0
	for path, item := range doc.T.Paths.Map() {
		for method := range item.Operations() {
			total++
			if !seen[method+" "+path] {
				missed = append(missed, method+" "+path)
			}
		}
	}
	if len(seen) == 0 {
		return
	}
	fmt.Printf("API contract: %d of %d documented operations exercised and validated by this run\n", len(seen), total)
	if os.Getenv("CANVASS_CONTRACT_LIST") == "1" {
		// make test splits the app's tests over several runs: each lists what it documents and
		// exercised, and the report at the end (.ci/testreport) counts them together.
		for path, item := range doc.T.Paths.Map() {
			for method := range item.Operations() {
				fmt.Printf("API contract documented: %s %s\n", method, path)
			}
		}
		for op := range seen {
			fmt.Printf("API contract exercised: %s\n", op)
		}
	}
	if os.Getenv("CANVASS_CONTRACT_MISSED") == "1" {
		sort.Strings(missed)
		for _, op := range missed {
			fmt.Println("  not exercised:", op)
		}
	}
}

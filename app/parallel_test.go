package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Every test of the repository runs side by side with the others (t.Parallel() as its first
// statement): each has its own database copy (migrations/dbtest), its own app, ports, and mail
// and SMS fakes, and the browser tests share one Chromium through contexts of their own. The
// tests below are the exceptions, each with its reason. Go runs a package's serial tests first,
// one after another, before any parallel test of that package starts, so these have the
// package to themselves (packages still run beside each other, `go test -p`).
//
// Keyed by the package's folder from the repository's root and the test's name.
var runsAlone = map[string]string{
	// They set the process's environment (t.Setenv), which Go refuses beside parallel tests:
	// the commands read their configuration from it.
	"app.TestABackupUnderWriteLoadRestoresToAReconciledCopyHoldingEveryAcknowledgedWrite": "runs `canvass backup` and `restore`, which read the process's environment (t.Setenv)",
	"app.TestRestoreChecksTheFileAndRefusesADatabaseInUse":                                "runs `canvass restore`, which reads the process's environment (t.Setenv)",
	"app.TestBackupNeverOverwritesAndOnPostgreSQLExplainsPgDump":                          "runs `canvass backup`, which reads the process's environment (t.Setenv)",
	"app.TestCampaignsValidateListsEveryProblemWithFileLineAndPathWithoutADatabase":       "runs `canvass campaigns`, which reads the process's environment (t.Setenv)",
	"app.TestCampaignsImportLoadsThePanelsCampaignsAndRefusesABatchWithABadFile":          "runs `canvass campaigns`, which reads the process's environment (t.Setenv)",
	"app.TestCompetitionsCommandsRefuseIncompleteArgumentsBeforeTouchingTheDatabase":      "runs `canvass competitions` without $USER (t.Setenv)",
	"app.TestTenantApplySealsTheOffersProvidersSecrets":                                   "the offers provider's secrets come from the process's environment (t.Setenv)",
	"app.TestPostcodesImportLoadsAPanelsFileAndRefusesAFileWithABadRow":                   "runs `canvass postcodes`, which reads the process's environment (t.Setenv)",

	// Timing is what they check: a cache bound, a kill, a drain.
	"app.TestThreeProcessesOnOnePostgreSQLServeEveryJourneyOnceThroughAKill":      "three server processes behind a proxy, a SIGKILL and a SIGTERM drain timed against in-flight requests",
	"app.TestAChangeMadeThroughOneProcessShowsThroughTheOtherWithinTheCacheBound": "measures how soon a second process sees a change against the cache bound",
	"app.TestSIGTERMLetsARequestInFlightFinishWhileNewConnectionsAreRefused":      "a request held in flight while the server drains, timed against the drain",

	// It watches the process's heap while the server refuses 24 uploads at once: another test's
	// memory would be counted as its own.
	"app.TestTwentyFourSmallPicturesOfHugeImagesAtOnceKeepTheServersMemoryBounded": "measures the process's heap during 24 uploads at once",

	// Load runs and measurements (`make bench`; skipped unless their variable is set): they
	// measure the machine, so nothing else may share it.
	"app.TestCeilingRun":          "load run: req/s of the ceiling program and the app (CANVASS_BENCH)",
	"app.TestLoadRun":             "load run: req/s (CANVASS_LOAD)",
	"app.TestFeedLoadRun":         "load run: req/s (CANVASS_LOAD)",
	"app.TestResultsScaleRun":     "scale run: latencies and memory (CANVASS_BENCH)",
	"app.TestSurveyLoadRun":       "load run: req/s (CANVASS_LOAD)",
	"app.TestTransactionsLoadRun": "load run: req/s (CANVASS_LOAD)",
	"app.TestLighthouseRun":       "Lighthouse's performance scores (CANVASS_LIGHTHOUSE)",
}

func TestEveryTestRunsInParallelOrSaysWhyItRunsAlone(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !isTestFunc(fn) {
				continue
			}
			key := filepath.ToSlash(dir) + "." + fn.Name.Name
			seen[key] = true
			parallel := callsParallelFirst(fn)
			switch reason := runsAlone[key]; {
			case !parallel && reason == "":
				t.Errorf("%s: %s neither calls t.Parallel() as its first statement nor says in runsAlone (app/parallel_test.go) why it must run alone", fset.Position(fn.Pos()), fn.Name.Name)
			case parallel && reason != "":
				t.Errorf("%s: %s runs in parallel but runsAlone says it must not (%s)", fset.Position(fn.Pos()), fn.Name.Name, reason)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var gone []string
	for key := range runsAlone {
		if !seen[key] {
			gone = append(gone, key)
		}
	}
	sort.Strings(gone)
	for _, key := range gone {
		t.Errorf("runsAlone names %s, which is no test of the repository", key)
	}
}

// isTestFunc is a func TestXxx(t *testing.T) that `go test` runs (TestMain is not one).
func isTestFunc(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	if !strings.HasPrefix(name, "Test") || name == "TestMain" || fn.Type.Params == nil || len(fn.Type.Params.List) != 1 {
		return false
	}
	star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "T"
}

// callsParallelFirst: the body's first statement is t.Parallel() on the test's own *testing.T.
func callsParallelFirst(fn *ast.FuncDecl) bool {
	if fn.Body == nil || len(fn.Body.List) == 0 || len(fn.Type.Params.List[0].Names) != 1 {
		return false
	}
	stmt, ok := fn.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	recv, ok := sel.X.(*ast.Ident)
	return ok && sel.Sel.Name == "Parallel" && recv.Name == fn.Type.Params.List[0].Names[0].Name
}

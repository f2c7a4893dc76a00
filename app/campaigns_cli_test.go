package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cliCampaign = `uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11
type: survey
name: Coffee habits
reward: "0.50"
estimated_minutes: 3
questions:
  - id: q1
    control_type: radio
    text: Do you drink coffee?
    answers: [{id: "yes"}, {id: "no"}]
`

const cliBrokenCampaign = `uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e12
type: surevy
name: Coffee habits
reward: "0.50"
estimated_minutes: 3
questions:
  - id: q1
    control_type: radio
    text: Do you drink coffee?
    answers: [{id: "yes"}]
`

func writeCampaignTestFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func quietCLILog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestCampaignsValidateListsEveryProblemWithFileLineAndPathWithoutADatabase(t *testing.T) {
	dir := t.TempDir()
	// Neither configuration nor a database is needed: production without a secret, and a
	// database in a directory that does not exist, would both fail any other command.
	t.Setenv("CANVASS_ENV", "production")
	t.Setenv("CANVASS_SECRET", "")
	dbPath := filepath.Join(dir, "missing", "canvass.db")
	t.Setenv("CANVASS_DATABASE_URL", "sqlite://"+dbPath)
	bad := writeCampaignTestFile(t, dir, "broken.yaml", cliBrokenCampaign)

	err := run(context.Background(), []string{"campaigns", "validate", bad}, quietCLILog())

	require.Error(t, err, "an invalid file fails the command (exit status 1)")
	var invalid *invalidCampaignFilesError
	require.True(t, errors.As(err, &invalid), "got %T: %v", err, err)
	assert.Contains(t, err.Error(), bad+`:2: /type: must be one of "survey", "poll", "profiler", "competition"; got "surevy"`)
	assert.Contains(t, err.Error(), bad+":10: /questions/0/answers: radio needs at least 2 answers, has 1")
	assert.Contains(t, err.Error(), "1 of 1 campaign files are invalid")
	assert.NoFileExists(t, dbPath)
}

func TestCampaignsValidateSaysOkForEachGoodFileAndFailsForABadOne(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeCampaignTestFile(t, dir, "good.yaml", cliCampaign)
	bad := writeCampaignTestFile(t, dir, "bad.json", `{"uuid": "x"}`)
	var out bytes.Buffer

	err := validateCampaignFiles(&out, []string{good, bad, filepath.Join(dir, "absent.yaml")})

	assert.Equal(t, "ok "+good+"\n", out.String())
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad+":1: /uuid: must be a lowercase UUID")
	assert.Contains(t, err.Error(), "absent.yaml")
	assert.Contains(t, err.Error(), "2 of 3 campaign files are invalid")

	out.Reset()
	require.NoError(t, validateCampaignFiles(&out, []string{good}))
	assert.Equal(t, "ok "+good+"\n", out.String())
}

func TestCampaignsValidateWithoutFilesShowsTheUsage(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), []string{"campaigns", "validate"}, quietCLILog())
	var usage *usageError
	require.ErrorAs(t, err, &usage)
	assert.Equal(t, "canvass campaigns validate needs at least one campaign FILE", err.Error())
	assert.Equal(t, "canvass campaigns validate", usage.command, "the hint names the command's --help")
}

func TestCampaignsImportLoadsThePanelsCampaignsAndRefusesABatchWithABadFile(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "canvass.db")
	t.Setenv("CANVASS_ENV", "development")
	t.Setenv("CANVASS_SECRET", "")
	t.Setenv("CANVASS_DEMO", "")
	t.Setenv("CANVASS_DATABASE_URL", "sqlite://"+dbPath)
	ctx := context.Background()
	good := writeCampaignTestFile(t, dir, "good.yaml", cliCampaign)
	bad := writeCampaignTestFile(t, dir, "bad.yaml", cliBrokenCampaign)

	err := run(ctx, []string{"campaigns", "import", "--panel", "acme", good, bad}, quietCLILog())
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad+":2: /type")
	assert.NoFileExists(t, dbPath, "an invalid file stops the import before the database is opened")

	tenant := writeCampaignTestFile(t, dir, "acme.yaml", "instance: {code: acme}\nkey: acme\nname: Acme\ncurrency_code: USD\nhosts: [acme.example]\nlanguages: [en]\n")
	require.NoError(t, run(ctx, []string{"tenant", "apply", tenant}, quietCLILog()))

	err = run(ctx, []string{"campaigns", "import", "--panel", "nobody", good}, quietCLILog())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `panel "nobody"`)

	require.NoError(t, run(ctx, []string{"campaigns", "import", "--panel", "acme", good}, quietCLILog()))
	require.NoError(t, run(ctx, []string{"campaigns", "import", "--panel", "acme", good}, quietCLILog()), "re-importing updates")

	db, err := migrations.Open("sqlite://" + dbPath)
	require.NoError(t, err)
	t.Cleanup(func() { closeDB(db) })
	var rows []campaigns.Campaign
	require.NoError(t, db.Find(&rows).Error)
	require.Len(t, rows, 1)
	assert.Equal(t, "3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11", rows[0].ID)
	assert.EqualValues(t, 50, rows[0].RewardMinor)
}

func TestCampaignsImportNeedsAPanelAndFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"campaigns"}, "canvass campaigns needs a command: import, preview-link, validate"},
		{[]string{"campaigns", "import"}, "canvass campaigns import needs at least one campaign FILE"},
		{[]string{"campaigns", "import", "--panel", "acme"}, "canvass campaigns import needs at least one campaign FILE"},
		{[]string{"campaigns", "import", "file.yaml"}, `required flag(s) "panel" not set`},
		{[]string{"campaigns", "publish", "file.yaml"}, `unknown command "publish" for "canvass campaigns"`},
	} {
		err := run(context.Background(), tc.args, quietCLILog())
		var usage *usageError
		require.ErrorAs(t, err, &usage, "%v", tc.args)
		assert.Contains(t, err.Error(), tc.want, "%v", tc.args)
	}
}

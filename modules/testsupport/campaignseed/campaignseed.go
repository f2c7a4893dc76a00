// Package campaignseed is test support: campaigns for tests, imported through the catalogue
// itself. It sits above modules/campaigns (whose own tests keep their own builders) and only
// tests import it.
package campaignseed

import (
	"context"
	"fmt"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// Definition is a valid campaign named name, of one radio question (q1: yes or no), paying
// 1.00; edits adjust it.
func Definition(name string, edits ...func(*campaigns.Definition)) *campaigns.Definition {
	d := &campaigns.Definition{
		UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": name}, Reward: "1.00", EstimatedMinutes: 5,
		Questions: []campaigns.Question{{ID: "q1", ControlType: campaigns.ControlRadio, Text: campaigns.Text{"en": "Pick one"},
			Answers: []campaigns.Option{{ID: "yes", Text: campaigns.Text{"en": "Yes"}}, {ID: "no", Text: campaigns.Text{"en": "No"}}}}},
	}
	for _, e := range edits {
		e(d)
	}
	return d
}

// Numbered is n campaigns (Definition) named Campaign 01, 02, ... with descending priority,
// so lists show them in that order; edits adjust each.
func Numbered(n int, edits ...func(*campaigns.Definition)) []*campaigns.Definition {
	out := make([]*campaigns.Definition, n)
	for i := range out {
		out[i] = Definition(fmt.Sprintf("Campaign %02d", i+1), append([]func(*campaigns.Definition){func(d *campaigns.Definition) { d.Priority = n - i }}, edits...)...)
	}
	return out
}

// Campaigns imports definitions into a panel through the catalogue and returns their uuids
// in order.
func Import(t testing.TB, catalogue *campaigns.Module, panel *web.Panel, defs ...*campaigns.Definition) []string {
	t.Helper()
	_, err := catalogue.Import(context.Background(), panel, defs)
	require.NoError(t, err)
	ids := make([]string, len(defs))
	for i, d := range defs {
		ids[i] = d.UUID
	}
	return ids
}

package surveys

import "strconv"

// Fill shows a stored answer VALUE (as decoded from JSON) in the question's form: the
// survey box fills it from the member's answer, the gallery from a fixture's.
func (v *QuestionView) Fill(answer any) {
	switch a := answer.(type) {
	case string:
		v.Value = a
	case float64:
		v.Value = strconv.FormatFloat(a, 'f', -1, 64)
	case []any:
		for i, x := range a {
			if s, ok := x.(string); ok {
				v.Chosen[s] = true
				v.Rank[s] = strconv.Itoa(i + 1)
			}
		}
	case map[string]any:
		if w, ok := a["watched"].(bool); ok && w {
			v.Value = "true"
		}
		v.Most, _ = a["most"].(string)
		v.Least, _ = a["least"].(string)
		v.Period, _ = a["period"].(string)
		v.Postcode, _ = a["postcode"].(string)
		for _, k := range []string{"amount", "count"} {
			if n, ok := a[k].(float64); ok {
				v.Amount = strconv.FormatFloat(n, 'f', -1, 64)
			}
		}
		for row, cell := range a {
			cols := map[string]bool{}
			switch x := cell.(type) {
			case string:
				cols[x] = true
			case []any:
				for _, y := range x {
					if s, ok := y.(string); ok {
						cols[s] = true
					}
				}
			}
			if len(cols) > 0 {
				v.Grid[row] = cols
			}
		}
	}
}

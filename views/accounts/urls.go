package accounts

import "net/url"

func joinURL(redirect string) string {
	if redirect == "" {
		return "/join"
	}
	return "/join?redirect=" + url.QueryEscape(redirect)
}

func joinAction(invite string) string {
	if invite == "" {
		return "/join"
	}
	return "/join/invite/" + url.PathEscape(invite)
}

package mail

import (
	"context"
	"strings"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the mails as members get them: each account mail (modules/accounts Mails.send)
// and bulk mails (modules/profile bulkMessage), in the panel's colours and the language.
func Gallery() []views.GalleryState {
	action := func(name, path, prefix, first, link string) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: path, Who: views.GalleryMail,
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return Action(galleryAction(ctx, f, prefix, first, galleryOrigin(f)+link))
			},
		}
	}
	bulk := func(name, kind, first string, text func(lang, from string) (subject, body string)) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: "/unsubscribe", Who: views.GalleryMail,
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				subject, body := text(f.Lang, f.Money(500))
				return Bulk(galleryBulk(ctx, f, kind, first, subject, body))
			},
		}
	}
	return []views.GalleryState{
		action("password-reset", "/reset-password", "mail.reset", "Jamie", "/reset-password?token="+galleryToken),
		action("password-reset-no-name", "/reset-password", "mail.reset", "", "/reset-password?token="+galleryToken),
		action("email-validation", "/validate-email/confirm", "mail.validate", "Maximiliana-Konstantina", "/validate-email/confirm?token="+galleryToken),
		action("close-account-link", "/close-account", "mail.close_link", "Jamie", "/close-account?token="+galleryToken),
		action("account-closed", "/join", "mail.closed", "Jamie", "/join"),
		bulk("bulk-newsletter", "newsletters", "Jamie", galleryNewsletter),
		bulk("bulk-survey-invitation", "surveyInvitations", "", gallerySurveyInvitation),
	}
}

// galleryToken is a mailed token's shape: two UUIDs without their dashes.
const galleryToken = "3f2b9c4e8a1d4f6b9e0c7a5d2b8f1e4c6a9d3b7e2f5c8a1d4b6e9f0c3a7d2b5e"

// galleryOrigin is where the panel's mailed links point (its first host).
func galleryOrigin(f views.Fixture) string { return "https://" + f.Panel + ".canvass.example" }

// galleryApp is the name mails sign with: the panel's app name (the page's when it has none).
func galleryApp(ctx context.Context, f views.Fixture) string {
	if f.AppName != "" {
		return f.AppName
	}
	return views.P(ctx).AppName
}

// galleryAction is an account mail as Mails.send composes it: "<prefix>.subject/.body/.button/
// .footer" with the panel's name, and the shared greeting and fallback.
func galleryAction(ctx context.Context, f views.Fixture, prefix, first, link string) ActionProps {
	f.AppName = galleryApp(ctx, f)
	data := map[string]any{"App": f.AppName, "Name": first}
	tr := func(id string) string { return views.Tf(ctx, id, data) }
	greeting := tr("mail.greeting_anonymous")
	if first != "" {
		greeting = tr("mail.greeting")
	}
	cta, ctaText := f.CTAColor, f.CTAText
	if cta == "" || ctaText == "" {
		cta, ctaText = "#000000", "#ffffff"
	}
	return ActionProps{
		Lang: f.Lang, AppName: f.AppName, Title: tr(prefix + ".subject"), Greeting: greeting, Body: tr(prefix + ".body"),
		Button: tr(prefix + ".button"), URL: link, Fallback: tr("mail.fallback"), Footer: tr(prefix + ".footer"),
		CTAColor: cta, CTAText: ctaText,
	}
}

// galleryBulk is one member's copy of a bulk mail as bulkMessage renders it: the operator's
// subject and body (split at blank lines), why it came and the link that stops its kind.
func galleryBulk(ctx context.Context, f views.Fixture, kind, first, subject, body string) BulkProps {
	f.AppName = galleryApp(ctx, f)
	greeting := views.T(ctx, "mail.greeting_anonymous")
	if first != "" {
		greeting = views.Tf(ctx, "mail.greeting", map[string]any{"Name": first})
	}
	kindName := views.T(ctx, "subscriptions."+kind)
	var paras []string
	for _, p := range strings.Split(body, "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			paras = append(paras, p)
		}
	}
	return BulkProps{
		Lang: f.Lang, AppName: f.AppName, Title: subject, Greeting: greeting, Paragraphs: paras,
		Why:         views.Tf(ctx, "mail.bulk.why", map[string]any{"App": f.AppName, "Kind": kindName}),
		Unsubscribe: views.Tf(ctx, "mail.bulk.unsubscribe", map[string]any{"Kind": kindName}),
		UnsubscribeURL: galleryOrigin(f) + "/unsubscribe/00000000-0000-4000-8000-0000000000a1/6d1f3c2a-8b4e-4f7a-9c0d-2e5b7a1c9f34/" +
			"9b3e7c1d2a4f6e8b0c5d7a9e1f3b5c7d?kind=" + kind,
	}
}

// galleryNewsletter is an operator's newsletter in each language it is written in: several
// paragraphs, one of them a list kept on its lines, and a long link; from is an amount.
func galleryNewsletter(lang, from string) (string, string) {
	switch lang {
	case "es":
		return "Novedades de noviembre: nuevas recompensas y encuestas más cortas",
			"Este mes hemos añadido tarjetas regalo de tres tiendas nuevas y hemos acortado la mayoría de las encuestas a menos de diez minutos.\n\n" +
				"Lo más destacado:\n- Tarjetas regalo desde " + from + "\n- Sorteo mensual para quienes completen cinco encuestas\n- Un nuevo panel sobre hábitos de compra\n\n" +
				"Gracias por participar. Sus respuestas ayudan a las empresas a tomar mejores decisiones."
	case "ru":
		return "Новости ноября: новые награды и более короткие опросы",
			"В этом месяце мы добавили подарочные карты трёх новых магазинов и сократили большинство опросов до десяти минут.\n\n" +
				"Главное:\n- Подарочные карты от " + from + "\n- Ежемесячный розыгрыш для тех, кто прошёл пять опросов\n- Новая панель о покупательских привычках\n\n" +
				"Спасибо за участие. Ваши ответы помогают компаниям принимать лучшие решения."
	case "zh":
		return "十一月新闻：新的奖励和更短的调查",
			"本月我们新增了三家商店的礼品卡，并将大多数调查缩短到十分钟以内。\n\n" +
				"重点：\n- 礼品卡最低 " + from + " 起\n- 完成五份调查即可参加每月抽奖\n- 关于购物习惯的新调查小组\n\n" +
				"感谢您的参与。您的回答帮助企业做出更好的决定。"
	}
	return "November news: new rewards and shorter surveys",
		"This month we added gift cards from three new shops and cut most surveys down to under ten minutes.\n\n" +
			"The highlights:\n- Gift cards from " + from + "\n- A monthly draw for everyone who completes five surveys\n- A new panel about shopping habits\n\n" +
			"Read the full story at https://www.northwind-rewards.example/news/2026/november-new-rewards-and-shorter-surveys-for-every-member\n\n" +
			"Thank you for taking part. Your answers help companies make better decisions."
}

// gallerySurveyInvitation is a short invitation to one survey.
func gallerySurveyInvitation(lang, _ string) (string, string) {
	switch lang {
	case "es":
		return "Una nueva encuesta le espera", "Tenemos una nueva encuesta sobre streaming y televisión. Dura unos doce minutos.\n\nAbra la aplicación para empezar."
	case "ru":
		return "Вас ждёт новый опрос", "У нас новый опрос о стриминге и телевидении. Он займёт около двенадцати минут.\n\nОткройте приложение, чтобы начать."
	case "zh":
		return "有一份新调查等着您", "我们有一份关于流媒体和电视的新调查，大约需要十二分钟。\n\n打开应用即可开始。"
	}
	return "A new survey is waiting for you", "We have a new survey about streaming, television and the evenings of households with more than one screen. It takes about twelve minutes.\n\nOpen the app to start."
}

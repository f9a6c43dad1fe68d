import '@adonisjs/core/types/http'

type ParamValue = string | number | bigint | boolean

export type ScannedRoutes = {
  ALL: {
    'v1.openapi': { paramsTuple?: []; params?: {} }
    'v1.oauth.token': { paramsTuple?: []; params?: {} }
    'v1.labels.store': { paramsTuple?: []; params?: {} }
    'v1.labels.index': { paramsTuple?: []; params?: {} }
    'v1.labels.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.labels.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.store': { paramsTuple?: []; params?: {} }
    'v1.publishers.index': { paramsTuple?: []; params?: {} }
    'v1.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.preview': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.confirm_rules': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.go_live_request': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.store': { paramsTuple?: []; params?: {} }
    'v1.buyers.index': { paramsTuple?: []; params?: {} }
    'v1.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.store': { paramsTuple?: []; params?: {} }
    'v1.routing_rules.index': { paramsTuple?: []; params?: {} }
    'v1.routing_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.api_keys.store': { paramsTuple?: []; params?: {} }
    'v1.api_keys.index': { paramsTuple?: []; params?: {} }
    'v1.api_keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.oauth_clients.store': { paramsTuple?: []; params?: {} }
    'v1.oauth_clients.index': { paramsTuple?: []; params?: {} }
    'v1.oauth_clients.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.leads.store': { paramsTuple?: []; params?: {} }
    'v1.leads.index': { paramsTuple?: []; params?: {} }
    'v1.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.leads.review': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.requests.store': { paramsTuple?: []; params?: {} }
    'v1.requests.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.uploads.store': { paramsTuple?: []; params?: {} }
    'v1.uploads.index': { paramsTuple?: []; params?: {} }
    'v1.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.uploads.rows': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.uploads.accept': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.audit_logs.index': { paramsTuple?: []; params?: {} }
    'v1.access_logs.index': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.verify': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.proof': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.consistency': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.checkpoints.latest': { paramsTuple?: []; params?: {} }
    'v1.reports.kpis': { paramsTuple?: []; params?: {} }
    'v1.reports.timeseries': { paramsTuple?: []; params?: {} }
    'v1.users.store': { paramsTuple?: []; params?: {} }
    'v1.users.index': { paramsTuple?: []; params?: {} }
    'v1.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.users.invitation.resend': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.invitation.resend': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.store': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.deliveries': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_deliveries.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_deliveries.bulk_retry': { paramsTuple?: []; params?: {} }
    'v1.webhook_deliveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_deliveries.retry': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_recoveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.events.replay': { paramsTuple: [ParamValue]; params: {'event_id': ParamValue} }
    'v1.forms.store': { paramsTuple?: []; params?: {} }
    'v1.forms.index': { paramsTuple?: []; params?: {} }
    'v1.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.forms.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'hosted_forms.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'hosted_forms.store': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'hosted_forms.start': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'hosted_forms.thanks': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'v1.settlement.show': { paramsTuple?: []; params?: {} }
    'v1.ledger_adjustments.store': { paramsTuple?: []; params?: {} }
    'v1.settlement_policies.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.settlement_policies.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.payout_runs.store': { paramsTuple?: []; params?: {} }
    'v1.payouts.index': { paramsTuple?: []; params?: {} }
    'v1.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.payouts.mark_paid': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.payouts.mark_failed': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyer_statements.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyer_funds.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyer_funds.top_up': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.index': { paramsTuple?: []; params?: {} }
    'v1.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.respond': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.decide': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.withdraw': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.leads.sale': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.pings.store': { paramsTuple?: []; params?: {} }
    'v1.posting_specs.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.show': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.destinations.update': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.destinations.destroy': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.destinations.test': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.plugins.available': { paramsTuple?: []; params?: {} }
    'v1.plugins.lead_syncs': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.calls.store': { paramsTuple?: []; params?: {} }
    'v1.calls.store_from_ringba': { paramsTuple?: []; params?: {} }
    'v1.calls.store_from_retreaver': { paramsTuple?: []; params?: {} }
    'v1.calls.store_from_callrail': { paramsTuple?: []; params?: {} }
    'v1.calls.store_from_invoca': { paramsTuple?: []; params?: {} }
    'v1.calls.for_lead': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.plugins.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.plugins.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.plugins.show': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.plugins.update': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.plugins.destroy': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.plugins.deliveries': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.plugins.test': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.templates.zapier': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.templates.make': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.templates.n8n': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'mcp': { paramsTuple?: []; params?: {} }
    'v1.meta.show': { paramsTuple?: []; params?: {} }
    'v1.meta.ip_ranges': { paramsTuple?: []; params?: {} }
    'v1.privacy_requests.store': { paramsTuple?: []; params?: {} }
    'v1.privacy_requests.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.consent_withdrawals.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.retention_policies.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.retention_policies.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'account.show': { paramsTuple?: []; params?: {} }
    'account.password.update': { paramsTuple?: []; params?: {} }
    'account.sessions.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'account.sessions.destroy_others': { paramsTuple?: []; params?: {} }
    'password_reset.create': { paramsTuple?: []; params?: {} }
    'password_reset.store': { paramsTuple?: []; params?: {} }
    'password_reset.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'password_reset.update': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'user_invitations.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'user_invitations.store': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'operator.home': { paramsTuple?: []; params?: {} }
    'operator.publishers.index': { paramsTuple?: []; params?: {} }
    'operator.publishers.create': { paramsTuple?: []; params?: {} }
    'operator.publishers.store': { paramsTuple?: []; params?: {} }
    'operator.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.publishers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.publishers.resend_invitation': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.quality_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.quality_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.quality_rules.preview': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.buyers.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.buyers.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.buyers.store': { paramsTuple?: []; params?: {} }
    'operator.catalogue.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.buyers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.buyers.top_ups.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.routing_rules.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.routing_rules.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.routing_rules.store': { paramsTuple?: []; params?: {} }
    'operator.catalogue.routing_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.routing_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.routing_rules.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.labels.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.labels.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.labels.store': { paramsTuple?: []; params?: {} }
    'operator.catalogue.labels.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.labels.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.label_sales.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.label_sales.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.users.index': { paramsTuple?: []; params?: {} }
    'operator.users.store': { paramsTuple?: []; params?: {} }
    'operator.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.users.invitation': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.access_log.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.keys.store': { paramsTuple?: []; params?: {} }
    'operator.integrations.keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.webhooks.store': { paramsTuple?: []; params?: {} }
    'operator.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.deliveries.retry': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'delivery_id': ParamValue} }
    'operator.integrations.webhooks.events.replay': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'event_id': ParamValue} }
    'operator.integrations.oauth_clients.store': { paramsTuple?: []; params?: {} }
    'operator.integrations.oauth_clients.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'publisher.integrations.keys.store': { paramsTuple?: []; params?: {} }
    'publisher.integrations.keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'publisher.integrations.webhooks.store': { paramsTuple?: []; params?: {} }
    'publisher.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.deliveries.retry': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'delivery_id': ParamValue} }
    'publisher.integrations.webhooks.events.replay': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'event_id': ParamValue} }
    'buyer.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'buyer.integrations.keys.store': { paramsTuple?: []; params?: {} }
    'buyer.integrations.keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'buyer.integrations.webhooks.store': { paramsTuple?: []; params?: {} }
    'buyer.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.deliveries.retry': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'delivery_id': ParamValue} }
    'buyer.integrations.webhooks.events.replay': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'event_id': ParamValue} }
    'operator.leads.index': { paramsTuple?: []; params?: {} }
    'operator.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.leads.review': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.review.index': { paramsTuple?: []; params?: {} }
    'publisher.leads.index': { paramsTuple?: []; params?: {} }
    'publisher.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.index': { paramsTuple?: []; params?: {} }
    'buyer.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.home': { paramsTuple?: []; params?: {} }
    'publisher.delivery_method.update': { paramsTuple?: []; params?: {} }
    'publisher.quality_rules.confirm': { paramsTuple?: []; params?: {} }
    'publisher.sandbox_key.store': { paramsTuple?: []; params?: {} }
    'publisher.test_lead.store': { paramsTuple?: []; params?: {} }
    'publisher.go_live_request.store': { paramsTuple?: []; params?: {} }
    'publisher.users.index': { paramsTuple?: []; params?: {} }
    'publisher.users.store': { paramsTuple?: []; params?: {} }
    'publisher.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.users.invitation': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.posting_spec.show': { paramsTuple?: []; params?: {} }
    'publisher.access_log.index': { paramsTuple?: []; params?: {} }
    'buyer.destinations.index': { paramsTuple?: []; params?: {} }
    'buyer.destinations.create': { paramsTuple?: []; params?: {} }
    'buyer.destinations.store': { paramsTuple?: []; params?: {} }
    'buyer.destinations.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.destinations.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.destinations.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.destinations.test': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.rules.index': { paramsTuple?: []; params?: {} }
    'buyer.rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'compliance.home': { paramsTuple?: []; params?: {} }
    'compliance.verification.store': { paramsTuple?: []; params?: {} }
    'compliance.log_verification.store': { paramsTuple?: []; params?: {} }
    'compliance.proof.show': { paramsTuple?: []; params?: {} }
    'compliance.exports.index': { paramsTuple?: []; params?: {} }
    'compliance.exports.download': { paramsTuple?: []; params?: {} }
    'operator.forms.index': { paramsTuple?: []; params?: {} }
    'operator.forms.create': { paramsTuple?: []; params?: {} }
    'operator.forms.store': { paramsTuple?: []; params?: {} }
    'operator.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.forms.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.forms.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.forms.index': { paramsTuple?: []; params?: {} }
    'publisher.forms.create': { paramsTuple?: []; params?: {} }
    'publisher.forms.store': { paramsTuple?: []; params?: {} }
    'publisher.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.forms.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.forms.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.uploads.index': { paramsTuple?: []; params?: {} }
    'operator.uploads.store': { paramsTuple?: []; params?: {} }
    'operator.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.uploads.report': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.uploads.accept': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.uploads.index': { paramsTuple?: []; params?: {} }
    'publisher.uploads.store': { paramsTuple?: []; params?: {} }
    'publisher.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.uploads.report': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.uploads.accept': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.settlement.show': { paramsTuple?: []; params?: {} }
    'publisher.settlement.sales': { paramsTuple?: []; params?: {} }
    'publisher.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.disputes.index': { paramsTuple?: []; params?: {} }
    'publisher.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.disputes.respond': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.return_window': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.disputes.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.disputes.index': { paramsTuple?: []; params?: {} }
    'buyer.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.disputes.withdraw': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.funds.show': { paramsTuple?: []; params?: {} }
    'buyer.statement.show': { paramsTuple?: []; params?: {} }
    'buyer.statement.download': { paramsTuple?: []; params?: {} }
    'operator.money.settlement.index': { paramsTuple?: []; params?: {} }
    'operator.money.settlement.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.settlement.adjust': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.disputes.index': { paramsTuple?: []; params?: {} }
    'operator.money.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.disputes.decide': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.payouts.index': { paramsTuple?: []; params?: {} }
    'operator.money.payouts.run': { paramsTuple?: []; params?: {} }
    'operator.money.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.payouts.mark_paid': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.payouts.mark_failed': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.settlement_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.settlement_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.privacy.retention.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.privacy.retention.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.plugins.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.plugins.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.plugins.update': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'operator.plugins.test': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'event_stream': { paramsTuple?: []; params?: {} }
    'subscribe': { paramsTuple?: []; params?: {} }
    'unsubscribe': { paramsTuple?: []; params?: {} }
    'operator.reports.show': { paramsTuple?: []; params?: {} }
    'operator.reports.kpis': { paramsTuple?: []; params?: {} }
    'operator.reports.timeseries': { paramsTuple?: []; params?: {} }
    'publisher.dashboard.show': { paramsTuple?: []; params?: {} }
    'label_manager.reports.show': { paramsTuple?: []; params?: {} }
    'label_manager.reports.kpis': { paramsTuple?: []; params?: {} }
    'label_manager.reports.timeseries': { paramsTuple?: []; params?: {} }
    'docs': { paramsTuple?: []; params?: {} }
    'session.create': { paramsTuple?: []; params?: {} }
    'session.store': { paramsTuple?: []; params?: {} }
    'invitations.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'invitations.store': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'session.destroy': { paramsTuple?: []; params?: {} }
    'portal.show': { paramsTuple?: []; params?: {} }
  }
  GET: {
    'v1.openapi': { paramsTuple?: []; params?: {} }
    'v1.labels.index': { paramsTuple?: []; params?: {} }
    'v1.labels.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.index': { paramsTuple?: []; params?: {} }
    'v1.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.index': { paramsTuple?: []; params?: {} }
    'v1.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.index': { paramsTuple?: []; params?: {} }
    'v1.routing_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.api_keys.index': { paramsTuple?: []; params?: {} }
    'v1.oauth_clients.index': { paramsTuple?: []; params?: {} }
    'v1.leads.index': { paramsTuple?: []; params?: {} }
    'v1.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.requests.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.uploads.index': { paramsTuple?: []; params?: {} }
    'v1.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.uploads.rows': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.audit_logs.index': { paramsTuple?: []; params?: {} }
    'v1.access_logs.index': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.verify': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.proof': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.consistency': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.checkpoints.latest': { paramsTuple?: []; params?: {} }
    'v1.reports.kpis': { paramsTuple?: []; params?: {} }
    'v1.reports.timeseries': { paramsTuple?: []; params?: {} }
    'v1.users.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.deliveries': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_deliveries.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_deliveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_recoveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.forms.index': { paramsTuple?: []; params?: {} }
    'v1.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'hosted_forms.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'hosted_forms.thanks': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'v1.settlement.show': { paramsTuple?: []; params?: {} }
    'v1.settlement_policies.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.payouts.index': { paramsTuple?: []; params?: {} }
    'v1.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyer_statements.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyer_funds.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.index': { paramsTuple?: []; params?: {} }
    'v1.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.leads.sale': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.posting_specs.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.show': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.plugins.available': { paramsTuple?: []; params?: {} }
    'v1.plugins.lead_syncs': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.calls.for_lead': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.plugins.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.plugins.show': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.plugins.deliveries': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.templates.zapier': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.templates.make': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.templates.n8n': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'mcp': { paramsTuple?: []; params?: {} }
    'v1.meta.show': { paramsTuple?: []; params?: {} }
    'v1.meta.ip_ranges': { paramsTuple?: []; params?: {} }
    'v1.privacy_requests.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.retention_policies.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'account.show': { paramsTuple?: []; params?: {} }
    'password_reset.create': { paramsTuple?: []; params?: {} }
    'password_reset.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'user_invitations.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'operator.home': { paramsTuple?: []; params?: {} }
    'operator.publishers.index': { paramsTuple?: []; params?: {} }
    'operator.publishers.create': { paramsTuple?: []; params?: {} }
    'operator.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.quality_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.buyers.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.buyers.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.routing_rules.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.routing_rules.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.routing_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.labels.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.labels.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.labels.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.label_sales.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.users.index': { paramsTuple?: []; params?: {} }
    'operator.access_log.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'publisher.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'publisher.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'buyer.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'buyer.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.leads.index': { paramsTuple?: []; params?: {} }
    'operator.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.review.index': { paramsTuple?: []; params?: {} }
    'publisher.leads.index': { paramsTuple?: []; params?: {} }
    'publisher.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.index': { paramsTuple?: []; params?: {} }
    'buyer.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.home': { paramsTuple?: []; params?: {} }
    'publisher.users.index': { paramsTuple?: []; params?: {} }
    'publisher.posting_spec.show': { paramsTuple?: []; params?: {} }
    'publisher.access_log.index': { paramsTuple?: []; params?: {} }
    'buyer.destinations.index': { paramsTuple?: []; params?: {} }
    'buyer.destinations.create': { paramsTuple?: []; params?: {} }
    'buyer.destinations.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.rules.index': { paramsTuple?: []; params?: {} }
    'buyer.rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'compliance.home': { paramsTuple?: []; params?: {} }
    'compliance.proof.show': { paramsTuple?: []; params?: {} }
    'compliance.exports.index': { paramsTuple?: []; params?: {} }
    'compliance.exports.download': { paramsTuple?: []; params?: {} }
    'operator.forms.index': { paramsTuple?: []; params?: {} }
    'operator.forms.create': { paramsTuple?: []; params?: {} }
    'operator.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.forms.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.forms.index': { paramsTuple?: []; params?: {} }
    'publisher.forms.create': { paramsTuple?: []; params?: {} }
    'publisher.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.forms.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.uploads.index': { paramsTuple?: []; params?: {} }
    'operator.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.uploads.report': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.uploads.index': { paramsTuple?: []; params?: {} }
    'publisher.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.uploads.report': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.settlement.show': { paramsTuple?: []; params?: {} }
    'publisher.settlement.sales': { paramsTuple?: []; params?: {} }
    'publisher.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.disputes.index': { paramsTuple?: []; params?: {} }
    'publisher.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.return_window': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.disputes.index': { paramsTuple?: []; params?: {} }
    'buyer.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.funds.show': { paramsTuple?: []; params?: {} }
    'buyer.statement.show': { paramsTuple?: []; params?: {} }
    'buyer.statement.download': { paramsTuple?: []; params?: {} }
    'operator.money.settlement.index': { paramsTuple?: []; params?: {} }
    'operator.money.settlement.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.disputes.index': { paramsTuple?: []; params?: {} }
    'operator.money.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.payouts.index': { paramsTuple?: []; params?: {} }
    'operator.money.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.settlement_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.privacy.retention.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.plugins.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'event_stream': { paramsTuple?: []; params?: {} }
    'operator.reports.show': { paramsTuple?: []; params?: {} }
    'operator.reports.kpis': { paramsTuple?: []; params?: {} }
    'operator.reports.timeseries': { paramsTuple?: []; params?: {} }
    'publisher.dashboard.show': { paramsTuple?: []; params?: {} }
    'label_manager.reports.show': { paramsTuple?: []; params?: {} }
    'label_manager.reports.kpis': { paramsTuple?: []; params?: {} }
    'label_manager.reports.timeseries': { paramsTuple?: []; params?: {} }
    'docs': { paramsTuple?: []; params?: {} }
    'session.create': { paramsTuple?: []; params?: {} }
    'invitations.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'portal.show': { paramsTuple?: []; params?: {} }
  }
  HEAD: {
    'v1.openapi': { paramsTuple?: []; params?: {} }
    'v1.labels.index': { paramsTuple?: []; params?: {} }
    'v1.labels.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.index': { paramsTuple?: []; params?: {} }
    'v1.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.index': { paramsTuple?: []; params?: {} }
    'v1.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.index': { paramsTuple?: []; params?: {} }
    'v1.routing_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.api_keys.index': { paramsTuple?: []; params?: {} }
    'v1.oauth_clients.index': { paramsTuple?: []; params?: {} }
    'v1.leads.index': { paramsTuple?: []; params?: {} }
    'v1.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.requests.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.uploads.index': { paramsTuple?: []; params?: {} }
    'v1.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.uploads.rows': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.audit_logs.index': { paramsTuple?: []; params?: {} }
    'v1.access_logs.index': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.verify': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.proof': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.consistency': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.checkpoints.latest': { paramsTuple?: []; params?: {} }
    'v1.reports.kpis': { paramsTuple?: []; params?: {} }
    'v1.reports.timeseries': { paramsTuple?: []; params?: {} }
    'v1.users.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.deliveries': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_deliveries.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_deliveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_recoveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.forms.index': { paramsTuple?: []; params?: {} }
    'v1.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'hosted_forms.show': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'hosted_forms.thanks': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'v1.settlement.show': { paramsTuple?: []; params?: {} }
    'v1.settlement_policies.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.payouts.index': { paramsTuple?: []; params?: {} }
    'v1.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyer_statements.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyer_funds.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.index': { paramsTuple?: []; params?: {} }
    'v1.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.leads.sale': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.posting_specs.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.show': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.plugins.available': { paramsTuple?: []; params?: {} }
    'v1.plugins.lead_syncs': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.calls.for_lead': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.plugins.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.plugins.show': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.plugins.deliveries': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'v1.templates.zapier': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.templates.make': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.templates.n8n': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'mcp': { paramsTuple?: []; params?: {} }
    'v1.meta.show': { paramsTuple?: []; params?: {} }
    'v1.meta.ip_ranges': { paramsTuple?: []; params?: {} }
    'v1.privacy_requests.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.retention_policies.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'account.show': { paramsTuple?: []; params?: {} }
    'password_reset.create': { paramsTuple?: []; params?: {} }
    'password_reset.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'user_invitations.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'operator.home': { paramsTuple?: []; params?: {} }
    'operator.publishers.index': { paramsTuple?: []; params?: {} }
    'operator.publishers.create': { paramsTuple?: []; params?: {} }
    'operator.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.quality_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.buyers.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.buyers.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.routing_rules.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.routing_rules.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.routing_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.labels.index': { paramsTuple?: []; params?: {} }
    'operator.catalogue.labels.create': { paramsTuple?: []; params?: {} }
    'operator.catalogue.labels.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.label_sales.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.users.index': { paramsTuple?: []; params?: {} }
    'operator.access_log.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'operator.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'publisher.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'publisher.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.keys.index': { paramsTuple?: []; params?: {} }
    'buyer.integrations.webhooks.index': { paramsTuple?: []; params?: {} }
    'buyer.integrations.webhooks.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.leads.index': { paramsTuple?: []; params?: {} }
    'operator.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.review.index': { paramsTuple?: []; params?: {} }
    'publisher.leads.index': { paramsTuple?: []; params?: {} }
    'publisher.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.index': { paramsTuple?: []; params?: {} }
    'buyer.leads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.proof': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.home': { paramsTuple?: []; params?: {} }
    'publisher.users.index': { paramsTuple?: []; params?: {} }
    'publisher.posting_spec.show': { paramsTuple?: []; params?: {} }
    'publisher.access_log.index': { paramsTuple?: []; params?: {} }
    'buyer.destinations.index': { paramsTuple?: []; params?: {} }
    'buyer.destinations.create': { paramsTuple?: []; params?: {} }
    'buyer.destinations.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.rules.index': { paramsTuple?: []; params?: {} }
    'buyer.rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'compliance.home': { paramsTuple?: []; params?: {} }
    'compliance.proof.show': { paramsTuple?: []; params?: {} }
    'compliance.exports.index': { paramsTuple?: []; params?: {} }
    'compliance.exports.download': { paramsTuple?: []; params?: {} }
    'operator.forms.index': { paramsTuple?: []; params?: {} }
    'operator.forms.create': { paramsTuple?: []; params?: {} }
    'operator.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.forms.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.forms.index': { paramsTuple?: []; params?: {} }
    'publisher.forms.create': { paramsTuple?: []; params?: {} }
    'publisher.forms.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.forms.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.uploads.index': { paramsTuple?: []; params?: {} }
    'operator.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.uploads.report': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.uploads.index': { paramsTuple?: []; params?: {} }
    'publisher.uploads.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.uploads.report': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.settlement.show': { paramsTuple?: []; params?: {} }
    'publisher.settlement.sales': { paramsTuple?: []; params?: {} }
    'publisher.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.disputes.index': { paramsTuple?: []; params?: {} }
    'publisher.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.leads.return_window': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.disputes.index': { paramsTuple?: []; params?: {} }
    'buyer.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.funds.show': { paramsTuple?: []; params?: {} }
    'buyer.statement.show': { paramsTuple?: []; params?: {} }
    'buyer.statement.download': { paramsTuple?: []; params?: {} }
    'operator.money.settlement.index': { paramsTuple?: []; params?: {} }
    'operator.money.settlement.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.disputes.index': { paramsTuple?: []; params?: {} }
    'operator.money.disputes.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.payouts.index': { paramsTuple?: []; params?: {} }
    'operator.money.payouts.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.settlement_rules.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.privacy.retention.edit': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.plugins.index': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'event_stream': { paramsTuple?: []; params?: {} }
    'operator.reports.show': { paramsTuple?: []; params?: {} }
    'operator.reports.kpis': { paramsTuple?: []; params?: {} }
    'operator.reports.timeseries': { paramsTuple?: []; params?: {} }
    'publisher.dashboard.show': { paramsTuple?: []; params?: {} }
    'label_manager.reports.show': { paramsTuple?: []; params?: {} }
    'label_manager.reports.kpis': { paramsTuple?: []; params?: {} }
    'label_manager.reports.timeseries': { paramsTuple?: []; params?: {} }
    'docs': { paramsTuple?: []; params?: {} }
    'session.create': { paramsTuple?: []; params?: {} }
    'invitations.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'portal.show': { paramsTuple?: []; params?: {} }
  }
  POST: {
    'v1.oauth.token': { paramsTuple?: []; params?: {} }
    'v1.labels.store': { paramsTuple?: []; params?: {} }
    'v1.publishers.store': { paramsTuple?: []; params?: {} }
    'v1.quality_rules.preview': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.confirm_rules': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.go_live_request': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.store': { paramsTuple?: []; params?: {} }
    'v1.routing_rules.store': { paramsTuple?: []; params?: {} }
    'v1.api_keys.store': { paramsTuple?: []; params?: {} }
    'v1.oauth_clients.store': { paramsTuple?: []; params?: {} }
    'v1.leads.store': { paramsTuple?: []; params?: {} }
    'v1.leads.review': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.requests.store': { paramsTuple?: []; params?: {} }
    'v1.uploads.store': { paramsTuple?: []; params?: {} }
    'v1.uploads.accept': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.users.store': { paramsTuple?: []; params?: {} }
    'v1.users.invitation.resend': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.invitation.resend': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.store': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_deliveries.bulk_retry': { paramsTuple?: []; params?: {} }
    'v1.webhook_deliveries.retry': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.events.replay': { paramsTuple: [ParamValue]; params: {'event_id': ParamValue} }
    'v1.forms.store': { paramsTuple?: []; params?: {} }
    'hosted_forms.store': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'hosted_forms.start': { paramsTuple: [ParamValue]; params: {'slug': ParamValue} }
    'v1.ledger_adjustments.store': { paramsTuple?: []; params?: {} }
    'v1.payout_runs.store': { paramsTuple?: []; params?: {} }
    'v1.payouts.mark_paid': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.payouts.mark_failed': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyer_funds.top_up': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.respond': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.decide': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.disputes.withdraw': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.pings.store': { paramsTuple?: []; params?: {} }
    'v1.destinations.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.test': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.calls.store': { paramsTuple?: []; params?: {} }
    'v1.calls.store_from_ringba': { paramsTuple?: []; params?: {} }
    'v1.calls.store_from_retreaver': { paramsTuple?: []; params?: {} }
    'v1.calls.store_from_callrail': { paramsTuple?: []; params?: {} }
    'v1.calls.store_from_invoca': { paramsTuple?: []; params?: {} }
    'v1.plugins.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.plugins.test': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'mcp': { paramsTuple?: []; params?: {} }
    'v1.privacy_requests.store': { paramsTuple?: []; params?: {} }
    'v1.consent_withdrawals.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'account.sessions.destroy_others': { paramsTuple?: []; params?: {} }
    'password_reset.store': { paramsTuple?: []; params?: {} }
    'password_reset.update': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'user_invitations.store': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'operator.publishers.store': { paramsTuple?: []; params?: {} }
    'operator.publishers.resend_invitation': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.quality_rules.preview': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.buyers.store': { paramsTuple?: []; params?: {} }
    'operator.catalogue.buyers.top_ups.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.routing_rules.store': { paramsTuple?: []; params?: {} }
    'operator.catalogue.labels.store': { paramsTuple?: []; params?: {} }
    'operator.users.store': { paramsTuple?: []; params?: {} }
    'operator.users.invitation': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.keys.store': { paramsTuple?: []; params?: {} }
    'operator.integrations.webhooks.store': { paramsTuple?: []; params?: {} }
    'operator.integrations.webhooks.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.deliveries.retry': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'delivery_id': ParamValue} }
    'operator.integrations.webhooks.events.replay': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'event_id': ParamValue} }
    'operator.integrations.oauth_clients.store': { paramsTuple?: []; params?: {} }
    'publisher.integrations.keys.store': { paramsTuple?: []; params?: {} }
    'publisher.integrations.webhooks.store': { paramsTuple?: []; params?: {} }
    'publisher.integrations.webhooks.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.deliveries.retry': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'delivery_id': ParamValue} }
    'publisher.integrations.webhooks.events.replay': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'event_id': ParamValue} }
    'buyer.integrations.keys.store': { paramsTuple?: []; params?: {} }
    'buyer.integrations.webhooks.store': { paramsTuple?: []; params?: {} }
    'buyer.integrations.webhooks.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.deliveries.retry': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'delivery_id': ParamValue} }
    'buyer.integrations.webhooks.events.replay': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'event_id': ParamValue} }
    'operator.leads.review': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.delivery_method.update': { paramsTuple?: []; params?: {} }
    'publisher.quality_rules.confirm': { paramsTuple?: []; params?: {} }
    'publisher.sandbox_key.store': { paramsTuple?: []; params?: {} }
    'publisher.test_lead.store': { paramsTuple?: []; params?: {} }
    'publisher.go_live_request.store': { paramsTuple?: []; params?: {} }
    'publisher.users.store': { paramsTuple?: []; params?: {} }
    'publisher.users.invitation': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.destinations.store': { paramsTuple?: []; params?: {} }
    'buyer.destinations.test': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'compliance.verification.store': { paramsTuple?: []; params?: {} }
    'compliance.log_verification.store': { paramsTuple?: []; params?: {} }
    'operator.forms.store': { paramsTuple?: []; params?: {} }
    'publisher.forms.store': { paramsTuple?: []; params?: {} }
    'operator.uploads.store': { paramsTuple?: []; params?: {} }
    'operator.uploads.accept': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.uploads.store': { paramsTuple?: []; params?: {} }
    'publisher.uploads.accept': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.disputes.respond': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.disputes.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.disputes.withdraw': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.settlement.adjust': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.disputes.decide': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.payouts.run': { paramsTuple?: []; params?: {} }
    'operator.money.payouts.mark_paid': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.payouts.mark_failed': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.plugins.store': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.plugins.test': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'subscribe': { paramsTuple?: []; params?: {} }
    'unsubscribe': { paramsTuple?: []; params?: {} }
    'session.store': { paramsTuple?: []; params?: {} }
    'invitations.store': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'session.destroy': { paramsTuple?: []; params?: {} }
  }
  PATCH: {
    'v1.labels.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.forms.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.update': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.plugins.update': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'mcp': { paramsTuple?: []; params?: {} }
    'operator.publishers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.buyers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.routing_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.labels.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.label_sales.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.destinations.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.forms.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.forms.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.plugins.update': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
  }
  PUT: {
    'v1.quality_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.settlement_policies.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'mcp': { paramsTuple?: []; params?: {} }
    'v1.retention_policies.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'account.password.update': { paramsTuple?: []; params?: {} }
    'operator.quality_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.money.settlement_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.privacy.retention.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  DELETE: {
    'v1.routing_rules.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.api_keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.oauth_clients.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.destinations.destroy': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'destination_id': ParamValue} }
    'v1.plugins.destroy': { paramsTuple: [ParamValue,ParamValue]; params: {'id': ParamValue,'name': ParamValue} }
    'mcp': { paramsTuple?: []; params?: {} }
    'account.sessions.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.catalogue.routing_rules.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.webhooks.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'operator.integrations.oauth_clients.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'publisher.integrations.webhooks.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.integrations.webhooks.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'buyer.destinations.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  OPTIONS: {
    'mcp': { paramsTuple?: []; params?: {} }
  }
}
declare module '@adonisjs/core/types/http' {
  export interface RoutesList extends ScannedRoutes {}
}
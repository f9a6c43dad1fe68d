/**
 * Policies by name, loaded lazily; one policy per resource, one method per action.
 */
export const policies = {
  LabelPolicy: () => import('#policies/label_policy'),
  PublisherPolicy: () => import('#policies/publisher_policy'),
  QualityRulesPolicy: () => import('#policies/quality_rules_policy'),
  BuyerPolicy: () => import('#policies/buyer_policy'),
  RoutingRulePolicy: () => import('#policies/routing_rule_policy'),
  CredentialPolicy: () => import('#policies/credential_policy'),
  UserPolicy: () => import('#policies/user_policy'),
  LeadPolicy: () => import('#policies/lead_policy'),
  UploadPolicy: () => import('#policies/upload_policy'),
  FormPolicy: () => import('#policies/form_policy'),
  SettlementPolicy: () => import('#policies/settlement_policy'),
  DisputePolicy: () => import('#policies/dispute_policy'),
  PayoutPolicy: () => import('#policies/payout_policy'),
  WebhookEndpointPolicy: () => import('#policies/webhook_endpoint_policy'),
  AuditLogPolicy: () => import('#policies/audit_log_policy'),
  AccessLogPolicy: () => import('#policies/access_log_policy'),
  ReportPolicy: () => import('#policies/report_policy'),
  PluginPolicy: () => import('#policies/plugin_policy'),
  CallPolicy: () => import('#policies/call_policy'),
  PrivacyPolicy: () => import('#policies/privacy_policy'),
  DestinationPolicy: () => import('#policies/destination_policy'),
}

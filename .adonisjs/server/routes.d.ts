import '@adonisjs/core/types/http'

type ParamValue = string | number | bigint | boolean

export type ScannedRoutes = {
  ALL: {
    'v1.openapi': { paramsTuple?: []; params?: {} }
    'v1.oauth.token': { paramsTuple?: []; params?: {} }
    'v1.labels.store': { paramsTuple?: []; params?: {} }
    'v1.labels.index': { paramsTuple?: []; params?: {} }
    'v1.labels.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.store': { paramsTuple?: []; params?: {} }
    'v1.publishers.index': { paramsTuple?: []; params?: {} }
    'v1.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.publishers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.store': { paramsTuple?: []; params?: {} }
    'v1.buyers.index': { paramsTuple?: []; params?: {} }
    'v1.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
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
    'v1.requests.store': { paramsTuple?: []; params?: {} }
    'v1.requests.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.audit_logs.index': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.verify': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.proof': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.consistency': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.checkpoints.latest': { paramsTuple?: []; params?: {} }
    'v1.users.store': { paramsTuple?: []; params?: {} }
    'v1.users.index': { paramsTuple?: []; params?: {} }
    'v1.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
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
    'v1.audit_logs.index': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.verify': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.proof': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.consistency': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.checkpoints.latest': { paramsTuple?: []; params?: {} }
    'v1.users.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.deliveries': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_deliveries.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_deliveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_recoveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
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
    'v1.audit_logs.index': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.verify': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.proof': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.consistency': { paramsTuple?: []; params?: {} }
    'v1.audit_logs.checkpoints.latest': { paramsTuple?: []; params?: {} }
    'v1.users.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.deliveries': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_deliveries.index': { paramsTuple?: []; params?: {} }
    'v1.webhook_deliveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_recoveries.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'docs': { paramsTuple?: []; params?: {} }
    'session.create': { paramsTuple?: []; params?: {} }
    'invitations.show': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'portal.show': { paramsTuple?: []; params?: {} }
  }
  POST: {
    'v1.oauth.token': { paramsTuple?: []; params?: {} }
    'v1.labels.store': { paramsTuple?: []; params?: {} }
    'v1.publishers.store': { paramsTuple?: []; params?: {} }
    'v1.buyers.store': { paramsTuple?: []; params?: {} }
    'v1.routing_rules.store': { paramsTuple?: []; params?: {} }
    'v1.api_keys.store': { paramsTuple?: []; params?: {} }
    'v1.oauth_clients.store': { paramsTuple?: []; params?: {} }
    'v1.leads.store': { paramsTuple?: []; params?: {} }
    'v1.requests.store': { paramsTuple?: []; params?: {} }
    'v1.users.store': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.store': { paramsTuple?: []; params?: {} }
    'v1.webhook_endpoints.rotate_secret': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.recover': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_deliveries.bulk_retry': { paramsTuple?: []; params?: {} }
    'v1.webhook_deliveries.retry': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.events.replay': { paramsTuple: [ParamValue]; params: {'event_id': ParamValue} }
    'session.store': { paramsTuple?: []; params?: {} }
    'invitations.store': { paramsTuple: [ParamValue]; params: {'token': ParamValue} }
    'session.destroy': { paramsTuple?: []; params?: {} }
  }
  PATCH: {
    'v1.publishers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.users.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  PUT: {
    'v1.quality_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  DELETE: {
    'v1.routing_rules.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.api_keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.oauth_clients.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.webhook_endpoints.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
}
declare module '@adonisjs/core/types/http' {
  export interface RoutesList extends ScannedRoutes {}
}
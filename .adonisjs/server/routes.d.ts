import '@adonisjs/core/types/http'

type ParamValue = string | number | bigint | boolean

export type ScannedRoutes = {
  ALL: {
    'v1.openapi': { paramsTuple?: []; params?: {} }
    'v1.oauth.token': { paramsTuple?: []; params?: {} }
    'v1.labels.store': { paramsTuple?: []; params?: {} }
    'v1.labels.index': { paramsTuple?: []; params?: {} }
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
    'docs': { paramsTuple?: []; params?: {} }
    'session.create': { paramsTuple?: []; params?: {} }
    'session.store': { paramsTuple?: []; params?: {} }
    'session.destroy': { paramsTuple?: []; params?: {} }
    'portal.show': { paramsTuple?: []; params?: {} }
  }
  GET: {
    'v1.openapi': { paramsTuple?: []; params?: {} }
    'v1.labels.index': { paramsTuple?: []; params?: {} }
    'v1.publishers.index': { paramsTuple?: []; params?: {} }
    'v1.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.index': { paramsTuple?: []; params?: {} }
    'v1.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.index': { paramsTuple?: []; params?: {} }
    'v1.routing_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.api_keys.index': { paramsTuple?: []; params?: {} }
    'v1.oauth_clients.index': { paramsTuple?: []; params?: {} }
    'docs': { paramsTuple?: []; params?: {} }
    'session.create': { paramsTuple?: []; params?: {} }
    'portal.show': { paramsTuple?: []; params?: {} }
  }
  HEAD: {
    'v1.openapi': { paramsTuple?: []; params?: {} }
    'v1.labels.index': { paramsTuple?: []; params?: {} }
    'v1.publishers.index': { paramsTuple?: []; params?: {} }
    'v1.publishers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.quality_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.buyers.index': { paramsTuple?: []; params?: {} }
    'v1.buyers.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.index': { paramsTuple?: []; params?: {} }
    'v1.routing_rules.show': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.api_keys.index': { paramsTuple?: []; params?: {} }
    'v1.oauth_clients.index': { paramsTuple?: []; params?: {} }
    'docs': { paramsTuple?: []; params?: {} }
    'session.create': { paramsTuple?: []; params?: {} }
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
    'session.store': { paramsTuple?: []; params?: {} }
    'session.destroy': { paramsTuple?: []; params?: {} }
  }
  PATCH: {
    'v1.publishers.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.routing_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  PUT: {
    'v1.quality_rules.update': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
  DELETE: {
    'v1.routing_rules.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.api_keys.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
    'v1.oauth_clients.destroy': { paramsTuple: [ParamValue]; params: {'id': ParamValue} }
  }
}
declare module '@adonisjs/core/types/http' {
  export interface RoutesList extends ScannedRoutes {}
}
import type Buyer from '#models/buyer'

export function buyerToJson(buyer: Buyer) {
  return {
    id: buyer.id,
    name: buyer.name,
    contact_email: buyer.contactEmail,
    status: buyer.status,
    return_window_hours: buyer.returnWindowHours,
    created_at: buyer.createdAt.toUTC().toISO(),
  }
}

//! The datasets as typed Rust structs, what a handler returns: fields in the
//! order of the JSON files, `Serialize` + `Deserialize`.
//!
//! Numbers that the files write as decimals are `f64` (so a price of `4000`
//! in the file is `4000.0` when serialized back, as any Rust handler would
//! write it). The keyed map of feature flags is a `BTreeMap`, the
//! deterministic map a handler would use: its keys come out sorted, not in
//! the file's order.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::data::Dataset;

/// `tabular.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tabular {
    /// The rows.
    pub employees: Vec<Employee>,
}

/// One row of [`Tabular`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Employee {
    pub id: u32,
    pub name: String,
    pub email: String,
    pub department: String,
    pub salary: u32,
    pub years_experience: u32,
    pub active: bool,
}

/// `nested.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Nested {
    /// The orders.
    pub orders: Vec<Order>,
}

/// One order of [`Nested`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    pub order_id: String,
    pub customer: Customer,
    pub items: Vec<Item>,
    pub subtotal: f64,
    pub tax: f64,
    pub total: f64,
    pub status: String,
    pub order_date: String,
}

/// The customer of an [`Order`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Customer {
    pub id: u32,
    pub name: String,
    pub email: String,
    pub phone: String,
}

/// A line of an [`Order`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub sku: String,
    pub name: String,
    pub quantity: u32,
    pub price: f64,
}

/// `analytics.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analytics {
    /// One entry a day.
    pub metrics: Vec<Metric>,
}

/// A day of [`Analytics`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Metric {
    pub date: String,
    pub views: u64,
    pub clicks: u64,
    pub conversions: u64,
    pub revenue: f64,
    pub bounce_rate: f64,
}

/// `github.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Github {
    /// The repositories.
    pub repositories: Vec<Repository>,
}

/// A repository of [`Github`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Repository {
    pub id: u64,
    pub name: String,
    pub repo: String,
    pub description: String,
    pub created_at: String,
    pub updated_at: String,
    pub pushed_at: String,
    pub stars: u64,
    pub watchers: u64,
    pub forks: u64,
    pub default_branch: String,
}

/// `event-logs.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventLogs {
    /// The log lines.
    pub logs: Vec<Log>,
}

/// A line of [`EventLogs`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Log {
    pub timestamp: String,
    pub level: String,
    pub endpoint: String,
    pub status_code: u16,
    pub response_time: u32,
    pub user_id: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<LogError>,
}

/// The error of a [`Log`] line.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogError {
    pub message: String,
    pub stack: String,
    pub retryable: bool,
}

/// `nested-config.json`.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedConfig {
    pub environment: String,
    pub version: String,
    pub database: Database,
    pub features: Features,
    pub authentication: Authentication,
    pub permissions: Permissions,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Database {
    pub host: String,
    pub port: u16,
    pub name: String,
    pub pool: Pool,
    pub replicas: Vec<Replica>,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pool {
    pub min: u32,
    pub max: u32,
    pub idle_timeout: u32,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replica {
    pub host: String,
    pub port: u16,
    pub priority: u32,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Features {
    pub dark_mode: Feature<DarkModeConfig>,
    pub analytics: Feature<AnalyticsConfig>,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Feature<C> {
    pub enabled: bool,
    pub rollout: u32,
    pub variants: Vec<Variant<C>>,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant<C> {
    pub name: String,
    pub weight: u32,
    pub config: C,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DarkModeConfig {
    pub theme: String,
    pub animations: bool,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalyticsConfig {
    pub tracking: String,
    pub sampling: u32,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Authentication {
    pub providers: Vec<Provider>,
    pub session: Session,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provider {
    pub name: String,
    pub client_id: String,
    pub scopes: Vec<String>,
    pub config: ProviderConfig,
}

/// OAuth2 and SAML providers have different settings; the absent ones are
/// skipped, so each provider serializes as in the file.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_point: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cert: Option<String>,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub secret: String,
    pub duration: u32,
    pub refresh_threshold: u32,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Permissions {
    pub roles: Roles,
    pub groups: Groups,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Roles {
    pub admin: Role,
    pub editor: Role,
    pub viewer: Role,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Role {
    pub permissions: Vec<String>,
    pub inherits: Vec<String>,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Groups {
    pub engineering: Group,
    pub support: Group,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub members: Vec<String>,
    pub roles: Vec<String>,
}

/// `keyed.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Keyed {
    /// Flags by name.
    pub flags: BTreeMap<String, Flag>,
}

/// A flag of [`Keyed`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Flag {
    pub enabled: bool,
    pub rollout: u32,
    pub owner: String,
    pub updated_at: String,
}

/// `nested-group.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedGroup {
    /// The contacts.
    pub contacts: Vec<Contact>,
}

/// A contact of [`NestedGroup`].
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    pub name: String,
    pub age: u32,
    pub email: String,
    pub address: Address,
    pub plan: Plan,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Address {
    pub city: String,
    pub country: String,
}

#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub name: String,
    pub price: u32,
}

/// Any dataset as its typed struct.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq)]
pub enum Typed {
    Tabular(Tabular),
    Nested(Nested),
    Analytics(Analytics),
    Github(Github),
    EventLogs(EventLogs),
    NestedConfig(Box<NestedConfig>),
    Keyed(Keyed),
    NestedGroup(NestedGroup),
}

/// Something done with a typed dataset, whatever its type (a generic
/// closure).
pub trait Visit {
    /// What it gives.
    type Output;
    /// Does it with `value`.
    fn visit<T: Serialize + DeserializeOwned + 'static>(&mut self, value: &T) -> Self::Output;
}

fn parse<T: DeserializeOwned>(dataset: &Dataset) -> T {
    serde_json::from_slice(dataset.json)
        .unwrap_or_else(|e| panic!("{}.json into its struct: {e}", dataset.name))
}

impl Typed {
    /// Deserializes `dataset` into its struct with serde_json.
    pub fn load(dataset: &Dataset) -> Typed {
        match dataset.name {
            "tabular" => Typed::Tabular(parse(dataset)),
            "nested" => Typed::Nested(parse(dataset)),
            "analytics" => Typed::Analytics(parse(dataset)),
            "github" => Typed::Github(parse(dataset)),
            "event-logs" => Typed::EventLogs(parse(dataset)),
            "nested-config" => Typed::NestedConfig(Box::new(parse(dataset))),
            "keyed" => Typed::Keyed(parse(dataset)),
            "nested-group" => Typed::NestedGroup(parse(dataset)),
            other => panic!("no typed struct for dataset {other}"),
        }
    }

    /// The same data cut to its first `rows` rows (orders, logs, flags,
    /// ...): a small response, where per-response fixed costs dominate.
    /// nested-config has no rows and stays whole.
    pub fn first_rows(&self, rows: usize) -> Typed {
        let mut cut = self.clone();
        match &mut cut {
            Typed::Tabular(x) => x.employees.truncate(rows),
            Typed::Nested(x) => x.orders.truncate(rows),
            Typed::Analytics(x) => x.metrics.truncate(rows),
            Typed::Github(x) => x.repositories.truncate(rows),
            Typed::EventLogs(x) => x.logs.truncate(rows),
            Typed::NestedConfig(_) => {}
            Typed::Keyed(x) => {
                x.flags = std::mem::take(&mut x.flags)
                    .into_iter()
                    .take(rows)
                    .collect()
            }
            Typed::NestedGroup(x) => x.contacts.truncate(rows),
        }
        cut
    }

    /// Calls `v` with the struct.
    pub fn visit<V: Visit>(&self, v: &mut V) -> V::Output {
        match self {
            Typed::Tabular(x) => v.visit(x),
            Typed::Nested(x) => v.visit(x),
            Typed::Analytics(x) => v.visit(x),
            Typed::Github(x) => v.visit(x),
            Typed::EventLogs(x) => v.visit(x),
            Typed::NestedConfig(x) => v.visit(&**x),
            Typed::Keyed(x) => v.visit(x),
            Typed::NestedGroup(x) => v.visit(x),
        }
    }
}

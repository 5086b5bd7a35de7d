/**
 * Hand-written snippets of the kind people save: functions, configs, queries, shell lines, a few
 * one-liners, and plain prose. `expected` lists the answers accepted as right (C code saved as a
 * header, say, is still right as C++ only where the snippet is valid in both).
 */
import type { ClassificationSpecific } from '../../../src/core/piecesTypes.ts';

export interface Snippet {
  readonly name: string;
  readonly expected: readonly ClassificationSpecific[];
  readonly text: string;
}

function snippet(name: string, expected: ClassificationSpecific | ClassificationSpecific[], text: string): Snippet {
  return { name, expected: Array.isArray(expected) ? expected : [expected], text };
}

export const snippets: readonly Snippet[] = [
  snippet('typescript interface and generic function', 'ts', `
export interface Page<T> {
  readonly items: T[];
  readonly cursor?: string;
}

export async function collect<T>(fetchPage: (cursor?: string) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    all.push(...page.items);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return all;
}
`),
  snippet('typescript class with private fields', 'ts', `
class RateLimiter {
  private readonly timestamps: number[] = [];
  constructor(private readonly limit: number, private readonly windowMs: number) {}

  tryAcquire(now: number = Date.now()): boolean {
    while (this.timestamps.length > 0 && now - this.timestamps[0]! > this.windowMs) {
      this.timestamps.shift();
    }
    if (this.timestamps.length >= this.limit) return false;
    this.timestamps.push(now);
    return true;
  }
}
`),
  snippet('javascript express route', 'js', `
const express = require('express');
const app = express();

app.get('/users/:id', async (req, res) => {
  const user = await db.users.findOne({ id: req.params.id });
  if (!user) {
    return res.status(404).json({ error: 'not found' });
  }
  res.json(user);
});

app.listen(3000, () => console.log('listening on 3000'));
`),
  snippet('javascript debounce', 'js', `
function debounce(fn, wait) {
  let timer = null;
  return function (...args) {
    clearTimeout(timer);
    timer = setTimeout(() => fn.apply(this, args), wait);
  };
}

window.addEventListener('resize', debounce(() => {
  document.querySelector('#width').textContent = window.innerWidth;
}, 200));
`),
  snippet('python dataclass and comprehension', 'py', `
from dataclasses import dataclass, field
from typing import List


@dataclass
class Order:
    id: int
    items: List[str] = field(default_factory=list)

    def total(self, prices: dict) -> float:
        return sum(prices.get(item, 0.0) for item in self.items)


if __name__ == "__main__":
    order = Order(1, ["apple", "pear"])
    print(order.total({"apple": 1.5, "pear": 2.0}))
`),
  snippet('python requests script', 'py', `
import requests
import json

def fetch_repos(user):
    response = requests.get(f"https://api.github.com/users/{user}/repos", timeout=10)
    response.raise_for_status()
    return [repo["name"] for repo in response.json() if not repo["fork"]]

with open("repos.json", "w") as out:
    json.dump(fetch_repos("octocat"), out, indent=2)
`),
  snippet('java spring controller', 'java', `
@RestController
@RequestMapping("/api/books")
public class BookController {
    private final BookRepository repository;

    public BookController(BookRepository repository) {
        this.repository = repository;
    }

    @GetMapping("/{id}")
    public ResponseEntity<Book> findById(@PathVariable Long id) {
        return repository.findById(id)
                .map(ResponseEntity::ok)
                .orElse(ResponseEntity.notFound().build());
    }
}
`),
  snippet('java stream pipeline', 'java', `
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

public class WordCount {
    public static Map<String, Long> count(List<String> lines) {
        return lines.stream()
                .flatMap(line -> List.of(line.split("\\\\s+")).stream())
                .map(String::toLowerCase)
                .collect(Collectors.groupingBy(w -> w, Collectors.counting()));
    }
}
`),
  snippet('go http handler', 'go', `
package main

import (
	"encoding/json"
	"log"
	"net/http"
)

type Health struct {
	Status string \`json:"status"\`
}

func main() {
	http.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(Health{Status: "ok"})
	})
	log.Fatal(http.ListenAndServe(":8080", nil))
}
`),
  snippet('go goroutines with waitgroup', 'go', `
func fetchAll(urls []string) []int {
	var wg sync.WaitGroup
	sizes := make([]int, len(urls))
	for i, url := range urls {
		wg.Add(1)
		go func(i int, url string) {
			defer wg.Done()
			resp, err := http.Get(url)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			sizes[i] = len(body)
		}(i, url)
	}
	wg.Wait()
	return sizes
}
`),
  snippet('rust struct with impl and match', 'rs', `
use std::collections::HashMap;

#[derive(Debug, Clone)]
pub struct Inventory {
    items: HashMap<String, u32>,
}

impl Inventory {
    pub fn new() -> Self {
        Self { items: HashMap::new() }
    }

    pub fn remove(&mut self, name: &str, count: u32) -> Result<u32, String> {
        match self.items.get_mut(name) {
            Some(stock) if *stock >= count => {
                *stock -= count;
                Ok(*stock)
            }
            Some(_) => Err(format!("not enough {}", name)),
            None => Err(format!("no {} in stock", name)),
        }
    }
}
`),
  snippet('rust iterator chain', 'rs', `
fn main() {
    let words = vec!["apple", "bob", "kayak", "rust"];
    let palindromes: Vec<&str> = words
        .iter()
        .filter(|w| w.chars().eq(w.chars().rev()))
        .copied()
        .collect();
    println!("{:?}", palindromes);
}
`),
  snippet('c linked list', 'c', `
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

struct node *push(struct node *head, int value) {
    struct node *n = malloc(sizeof(struct node));
    if (n == NULL) {
        perror("malloc");
        exit(1);
    }
    n->value = value;
    n->next = head;
    return n;
}

int main(void) {
    struct node *list = NULL;
    for (int i = 0; i < 5; i++) list = push(list, i);
    for (struct node *p = list; p; p = p->next) printf("%d\\n", p->value);
    return 0;
}
`),
  snippet('c++ vector and algorithm', 'cpp', `
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

int main() {
    std::vector<std::string> names{"carol", "alice", "bob"};
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
        std::cout << name << std::endl;
    }
    return 0;
}
`),
  snippet('c++ class with templates', 'cpp', `
template <typename T>
class Stack {
public:
    void push(const T& value) { data_.push_back(value); }
    T pop() {
        T top = data_.back();
        data_.pop_back();
        return top;
    }
    bool empty() const { return data_.empty(); }
private:
    std::vector<T> data_;
};
`),
  snippet('c# linq and async', 'cs', `
using System;
using System.Linq;
using System.Threading.Tasks;

namespace Shop
{
    public class OrderService
    {
        private readonly IOrderRepository _orders;

        public OrderService(IOrderRepository orders) => _orders = orders;

        public async Task<decimal> TotalForCustomerAsync(Guid customerId)
        {
            var orders = await _orders.GetByCustomerAsync(customerId);
            return orders.Where(o => !o.Cancelled).Sum(o => o.Total);
        }
    }
}
`),
  snippet('ruby class', 'rb', `
class Account
  attr_reader :balance

  def initialize(balance = 0)
    @balance = balance
  end

  def deposit(amount)
    raise ArgumentError, "amount must be positive" unless amount.positive?
    @balance += amount
    self
  end
end

account = Account.new
account.deposit(50).deposit(25)
puts "Balance: #{account.balance}"
`),
  snippet('ruby rails migration', 'rb', `
class CreateArticles < ActiveRecord::Migration[7.0]
  def change
    create_table :articles do |t|
      t.string :title, null: false
      t.text :body
      t.references :author, foreign_key: true
      t.timestamps
    end
    add_index :articles, :title
  end
end
`),
  snippet('php pdo query', 'php', `
<?php
$pdo = new PDO('mysql:host=localhost;dbname=shop', $user, $password);
$stmt = $pdo->prepare('SELECT id, name FROM products WHERE price < :max');
$stmt->execute(['max' => 100]);
foreach ($stmt->fetchAll(PDO::FETCH_ASSOC) as $row) {
    echo $row['id'] . ': ' . $row['name'] . PHP_EOL;
}
`),
  snippet('php laravel controller', 'php', `
<?php

namespace App\\Http\\Controllers;

use App\\Models\\Post;
use Illuminate\\Http\\Request;

class PostController extends Controller
{
    public function store(Request $request)
    {
        $validated = $request->validate(['title' => 'required|max:255']);
        $post = Post::create($validated);
        return redirect()->route('posts.show', $post);
    }
}
`),
  snippet('swift struct and extension', 'swift', `
import Foundation

struct Temperature {
    var celsius: Double

    var fahrenheit: Double {
        return celsius * 9 / 5 + 32
    }
}

extension Temperature: CustomStringConvertible {
    var description: String {
        String(format: "%.1f°C", celsius)
    }
}

let readings = [Temperature(celsius: 21.5), Temperature(celsius: 19.0)]
let warm = readings.filter { $0.celsius > 20 }
print(warm)
`),
  snippet('kotlin data class', 'kt', `
data class User(val id: Long, val name: String, val email: String?)

fun main() {
    val users = listOf(
        User(1, "Ana", "ana@example.com"),
        User(2, "Ben", null),
    )
    val withEmail = users.filter { it.email != null }.map { it.name }
    println("Users with email: $withEmail")
}
`),
  snippet('bash deploy script', 'sh', `
#!/usr/bin/env bash
set -euo pipefail

APP_DIR="/srv/app"
BACKUP="/tmp/app-$(date +%Y%m%d).tar.gz"

tar -czf "$BACKUP" -C "$APP_DIR" .
git -C "$APP_DIR" pull --ff-only
if ! systemctl restart app.service; then
  echo "restart failed, restoring $BACKUP" >&2
  tar -xzf "$BACKUP" -C "$APP_DIR"
  exit 1
fi
`),
  snippet('bash loop over files', 'sh', `
for f in *.png; do
  convert "$f" -resize 50% "thumbs/\${f%.png}.jpg"
  echo "converted $f"
done
`),
  snippet('sql join with aggregate', 'sql', `
SELECT c.name, COUNT(o.id) AS order_count, SUM(o.total) AS revenue
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.id
WHERE o.created_at >= '2024-01-01'
GROUP BY c.name
HAVING COUNT(o.id) > 5
ORDER BY revenue DESC
LIMIT 10;
`),
  snippet('sql create table', 'sql', `
CREATE TABLE invoices (
    id SERIAL PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    amount NUMERIC(10, 2) NOT NULL,
    issued_on DATE DEFAULT CURRENT_DATE
);
CREATE INDEX invoices_customer_idx ON invoices (customer_id);
`),
  snippet('html page', 'html', `
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Sign in</title>
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <form action="/login" method="post">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" required>
    <button type="submit">Sign in</button>
  </form>
</body>
</html>
`),
  snippet('css flex layout', 'css', `
.container {
  display: flex;
  justify-content: space-between;
  align-items: center;
  padding: 0 16px;
}

.container > .item:hover {
  background-color: #f5f5f5;
  transition: background-color 0.2s ease-in-out;
}

@media (max-width: 600px) {
  .container { flex-direction: column; }
}
`),
  snippet('markdown readme', 'md', `
# Quick start

Install the package and run the server:

\`\`\`sh
npm install
npm start
\`\`\`

## Options

- \`--port\`: the port to listen on (default 3000)
- \`--verbose\`: log every request

See [the docs](https://example.com/docs) for more.
`),
  snippet('json package manifest', 'json', `
{
  "name": "my-app",
  "version": "1.2.0",
  "scripts": {
    "build": "tsc -p .",
    "test": "node --test"
  },
  "dependencies": {
    "express": "^4.19.2"
  },
  "private": true
}
`),
  snippet('yaml github workflow', 'yaml', `
name: CI
on:
  push:
    branches: [main]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
      - run: npm ci
      - run: npm test
`),
  snippet('dockerfile node app', 'dockerfile', `
FROM node:22-alpine AS build
WORKDIR /app
COPY package*.json ./
RUN npm ci
COPY . .
RUN npm run build

FROM node:22-alpine
WORKDIR /app
COPY --from=build /app/dist ./dist
EXPOSE 3000
CMD ["node", "dist/server.js"]
`),
  snippet('lua module', 'lua', `
local M = {}

function M.split(str, sep)
  local parts = {}
  for piece in string.gmatch(str, "([^" .. sep .. "]+)") do
    table.insert(parts, piece)
  end
  return parts
end

for i, v in ipairs(M.split("a,b,c", ",")) do
  print(i, v)
end

return M
`),
  snippet('haskell fold', 'hs', `
module Main where

import Data.List (foldl')

data Shape = Circle Double | Rect Double Double

area :: Shape -> Double
area (Circle r) = pi * r * r
area (Rect w h) = w * h

main :: IO ()
main = print (foldl' (+) 0 (map area [Circle 1, Rect 2 3]))
`),
  snippet('powershell script', 'ps1', `
param(
    [Parameter(Mandatory = $true)]
    [string]$Path
)

Get-ChildItem -Path $Path -Recurse -Filter *.log |
    Where-Object { $_.LastWriteTime -lt (Get-Date).AddDays(-30) } |
    ForEach-Object {
        Write-Host "Removing $($_.FullName)"
        Remove-Item $_.FullName -Force
    }
`),
  snippet('scala case classes', 'scala', `
sealed trait Expr
case class Num(value: Int) extends Expr
case class Add(left: Expr, right: Expr) extends Expr

object Eval {
  def eval(expr: Expr): Int = expr match {
    case Num(v) => v
    case Add(l, r) => eval(l) + eval(r)
  }

  def main(args: Array[String]): Unit = println(eval(Add(Num(1), Num(2))))
}
`),
  snippet('r data frame', 'r', `
library(dplyr)

sales <- read.csv("sales.csv")
summary <- sales %>%
  filter(region != "test") %>%
  group_by(region) %>%
  summarise(total = sum(amount), mean = mean(amount))

print(summary)
plot(summary$total, type = "b")
`),
  snippet('toml cargo manifest', 'toml', `
[package]
name = "inventory"
version = "0.1.0"
edition = "2021"

[dependencies]
serde = { version = "1.0", features = ["derive"] }
tokio = { version = "1", features = ["full"] }

[dev-dependencies]
criterion = "0.5"
`),
  snippet('dart widget', 'dart', `
import 'package:flutter/material.dart';

class Counter extends StatefulWidget {
  const Counter({super.key});

  @override
  State<Counter> createState() => _CounterState();
}

class _CounterState extends State<Counter> {
  int _count = 0;

  @override
  Widget build(BuildContext context) {
    return ElevatedButton(
      onPressed: () => setState(() => _count++),
      child: Text('Clicked $_count times'),
    );
  }
}
`),
  // Short snippets: below or near the model's 20-character minimum, so the fallback decides.
  snippet('one-line python print', 'py', `print(f"hello {name}")`),
  snippet('one-line shell command', 'sh', `ls -la | grep "\\.log$"`),
  snippet('one-line sql', 'sql', `SELECT * FROM users WHERE id = 1;`),
  snippet('one-line json', 'json', `{"id": 1, "tags": ["a", "b"]}`),
  snippet('short css rule', 'css', `a:hover { color: red; }`),
  snippet('short go println', 'go', `fmt.Println("hello", name)`),
  snippet('short html fragment', 'html', `<div class="card"><p>Hi</p></div>`),
  // Plain prose is text, not Markdown or code.
  snippet('prose note', 'txt', `
Remember to renew the domain before the end of the month. The registrar sends a reminder, but it
usually lands in the spam folder, so check the account page directly. Ask Dana if the card on file
has expired.
`),
  snippet('prose sentence', 'txt', `The meeting moved to Thursday afternoon because the room was booked.`),
];
